"""Loads a bagsim `run --jobs` CSV with evalys (the reader of Batsim's jobs.csv) and checks what evalys computes
against the run's report (`run --out`), for any family: `evalys_check.py JOBS.csv REPORT.json`.

Prints one line per figure checked and exits 1 on the first disagreement (docs/jobs.md, "Checked by evalys").
evalys rounds every number of a JobSet to 6 decimals, so figures agree within 1e-6 relative or 1e-5 absolute.
"""

import json
import sys

from evalys.jobset import JobSet


def close(a, b):
    return abs(a - b) <= max(1e-5, 1e-6 * max(abs(a), abs(b)))


def main(jobs_csv, report_json):
    with open(report_json) as f:
        report = json.load(f)
    family = report["scenario"].get("family", "multi_cluster")
    metrics = report["metrics"]
    if family == "multi_cluster":
        processors = metrics["system"]["processors"]
    elif family == "desktop_grid":
        processors = report["workload"]["machines"]
    else:
        processors = sum(report["scenario"]["data_grid"]["sites"])
    js = JobSet.from_csv(jobs_csv, resource_bounds=(0, processors - 1))
    df = js.df
    # evalys's utilisation: the number of processors busy over time; its area is the busy processor-seconds.
    busy_area = js.utilisation["area"].sum()
    last_finish = df["finish_time"].max()
    checks = []
    if family == "multi_cluster":
        system = metrics["system"]
        checks += [
            ("rows = finished tasks", len(df), metrics["tasks"]["finished"]),
            ("mean waiting_time = tasks.wait.mean", df["waiting_time"].mean(), metrics["tasks"]["wait"]["mean"]),
            ("mean turnaround_time = tasks.response.mean", df["turnaround_time"].mean(),
             metrics["tasks"]["response"]["mean"]),
            ("last finish_time = system.end_time", last_finish, system["end_time"]),
            ("busy area / (processors x end) = system.utilization",
             busy_area / (processors * system["end_time"]), system["utilization"]),
        ]
    elif family == "desktop_grid":
        # The report's figures are per BoT: its first dispatch (the first start of any of its tasks' replicas) and
        # its last completion, from its submission.
        bots = df.groupby("bot").agg(sub=("submission_time", "first"), first=("first_start", "min"),
                                     last=("finish_time", "max"))
        checks += [
            ("rows = finished tasks", len(df), metrics["finished_tasks"]),
            ("mean BoT waiting = waiting.mean", (bots["first"] - bots["sub"]).mean(), metrics["waiting"]["mean"]),
            ("mean BoT turnaround = turnaround.mean", (bots["last"] - bots["sub"]).mean(),
             metrics["turnaround"]["mean"]),
            ("last finish_time = end_time", last_finish, metrics["end_time"]),
        ]
    else:
        makespan = last_finish - df["submission_time"].min()
        checks += [
            ("rows = jobs ended", len(df), metrics["finished"] + metrics["killed"]),
            ("mean waiting_time = waiting.mean", df["waiting_time"].mean(), metrics["waiting"]["mean"]),
            ("mean turnaround_time = turnaround.mean", df["turnaround_time"].mean(), metrics["turnaround"]["mean"]),
            ("makespan = makespan", makespan, metrics["makespan"]),
            ("busy area / (makespan x processors) = held_utilization", busy_area / (makespan * processors),
             metrics["held_utilization"]),
        ]
    ok = True
    for name, ours, theirs in checks:
        agree = close(float(ours), float(theirs))
        ok &= agree
        print(f"{family}: {name}: evalys {float(ours):.9g}, report {float(theirs):.9g} {'ok' if agree else 'DIFFERS'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: evalys_check.py JOBS.csv REPORT.json")
    sys.exit(main(sys.argv[1], sys.argv[2]))
