"""Where papers come from: the official boards (discover), downloads into raw/ (fetch), file kinds by magic
bytes (filetype)."""
