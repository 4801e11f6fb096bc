"""The yearly schedule of the refresh: a Prefect deployment served from this machine.

    .venv/bin/python -m flows.deploy --web /data/fineweb2/kor_Hang/train

runs ``refresh`` every 1 March at 09:00 Asia/Seoul (after the winter exams' final keys are out) for the
current year, until stopped (stopping pauses the deployment). For a work pool instead of ``serve``, see the
README.
"""

from __future__ import annotations

import argparse

from prefect.schedules import Cron

from flows.refresh import refresh_flow

ANNUAL = Cron("0 9 1 3 *", timezone="Asia/Seoul")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--web", action="append", default=[], help="web shards to decontaminate against")
    parser.add_argument("--raw", default="raw")
    parser.add_argument("--data", default="data")
    args = parser.parse_args()
    refresh_flow.serve(name="annual-refresh", schedules=[ANNUAL],
                       parameters={"year": None, "web": args.web or None, "raw": args.raw, "store": args.data})


if __name__ == "__main__":
    main()
