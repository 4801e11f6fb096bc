"""Every file kind a paper arrives in, read into the parser's input: HWP/HWPX, ZIP bundles, and the guard that
refuses hostile files before they are read."""
