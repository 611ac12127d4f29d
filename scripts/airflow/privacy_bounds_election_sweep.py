"""Nightly privacy sweep of US presidential elections with privacy-bounds on a Spark cluster.

Two spark-submit tasks, both writing to a date partition ``dt={{ ds }}`` of the output base:

* ``election_history``: delta_eps(x) and the adversary's utility for every election 1920-2020
  (the paper's Figure 1 setting: 0.2 % of ballots lost, t = 0.51);
* ``smoothed_sweep``: delta_SDP over n = 100,000 .. 1,000,000 for the 2020 jurisdictions
  (Figure 2 left), the long one: it resumes from its finished n after a crash.

Reruns are safe: a task rerun into a finished ``dt=`` folder is a no-op (same parameters), a
retried sweep resumes where it stopped, and a failed run leaves no partial output.

Set up: an Airflow connection ``spark_default`` pointing at the cluster (e.g. host
``spark://spark-master``, port 7077), the shaded jar ``privacy-bounds.jar`` (built by
``mvn -B package``) and the project's ``datasets/`` on storage every node can read. The paths
below are the defaults; change PRIVACY_BOUNDS_HOME and OUTPUT_BASE for your site.
"""

from datetime import datetime, timedelta

from airflow import DAG
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

PRIVACY_BOUNDS_HOME = "/opt/privacy-bounds"
OUTPUT_BASE = "/data/privacy-bounds"
JAR = PRIVACY_BOUNDS_HOME + "/privacy-bounds.jar"
MAIN_CLASS = "org.privacybounds.cli.Main"

# Literal lists: tests read them without Airflow (ast) and check them with `privacy-bounds ... --dry-run`.
ELECTION_HISTORY_ARGS = [
    "election-history",
    "--data", "/opt/privacy-bounds/datasets/smoothed_dp_paper_election_history_1900_2020.csv",
    "--years", "1920:2020",
    "--lost-fraction", "0.002",
    "--threshold", "0.51",
    "--out", "/data/privacy-bounds/election-history/dt={{ ds }}",
]

SMOOTHED_SWEEP_ARGS = [
    "smoothed-sweep",
    "--n", "100000:100000:1000000",
    "--eta", "0.998",
    "--epsilon", "0.5,1,2,7",
    "--distributions-from-votes", "/opt/privacy-bounds/datasets/president_2020_biden_trump_57_jurisdictions_538.csv",
    "--out", "/data/privacy-bounds/smoothed-sweep/dt={{ ds }}",
]

SPARK_CONF = {
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.showConsoleProgress": "false",
    "spark.task.maxFailures": "4",
}

default_args = {
    "owner": "privacy-bounds",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
}

with DAG(
    dag_id="privacy_bounds_election_sweep",
    description="Nightly exact privacy bounds of US presidential elections (privacy-bounds)",
    schedule="@daily",
    start_date=datetime(2026, 11, 1),
    catchup=False,
    max_active_runs=1,
    default_args=default_args,
    tags=["privacy-bounds", "spark"],
) as dag:
    def privacy_bounds_task(task_id, application_args, timeout):
        """One privacy-bounds command under spark-submit, named after the task and the run date."""
        return SparkSubmitOperator(
            task_id=task_id,
            application=JAR,
            java_class=MAIN_CLASS,
            application_args=application_args,
            conf=SPARK_CONF,
            conn_id="spark_default",
            name="privacy-bounds-" + task_id.replace("_", "-") + "-{{ ds }}",
            execution_timeout=timeout,
        )

    election_history = privacy_bounds_task("election_history", ELECTION_HISTORY_ARGS, timedelta(hours=1))
    smoothed_sweep = privacy_bounds_task("smoothed_sweep", SMOOTHED_SWEEP_ARGS, timedelta(hours=6))
