"""Nightly exact privacy bounds with privacy-bounds on a Spark cluster: one task per job family.

Every path derives from two settings, read (in this order) from the Airflow Variables
``privacy_bounds_home`` and ``privacy_bounds_output_base``, else from the environment of the
scheduler (``PRIVACY_BOUNDS_HOME``, ``OUTPUT_BASE``), else the defaults below:

* ``PRIVACY_BOUNDS_HOME``: where the shaded jar ``privacy-bounds.jar`` and the project's
  ``datasets/`` are, on storage every Spark node can read (a shared file system, or an object
  store URI such as ``s3a://bucket/privacy-bounds`` for the datasets);
* ``OUTPUT_BASE``: where results go, local or an object store (``s3a://``, ``gs://``, ``abfs://``;
  the cluster needs the matching Hadoop connector, see the README).

Each task writes to ``OUTPUT_BASE/<family>/dt={{ ds }}``. Reruns of a day are idempotent: a task
rerun into a finished partition is a no-op (same parameters and input contents), a retried sweep
resumes from the n it finished, and a failed run leaves no partial output. Every task has
retries, an execution timeout and an SLA.

Worker set-up: ``pip install apache-airflow-providers-apache-spark``; ``spark-submit`` of a Spark
3.5 distribution built for Scala 2.13 on the worker's PATH (``SPARK_HOME``); an Airflow connection
``spark_default`` pointing at the master (e.g. host ``spark://spark-master``, port 7077).
"""

import os
from datetime import datetime, timedelta

from airflow import DAG
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

DEFAULT_HOME = os.environ.get("PRIVACY_BOUNDS_HOME", "/opt/privacy-bounds")
DEFAULT_OUTPUT_BASE = os.environ.get("OUTPUT_BASE", "/data/privacy-bounds")

# rendered by Airflow when a task runs: an Airflow Variable wins over the environment
HOME = "{{ var.value.get('privacy_bounds_home', '%s') }}" % DEFAULT_HOME
OUTPUT_BASE = "{{ var.value.get('privacy_bounds_output_base', '%s') }}" % DEFAULT_OUTPUT_BASE
JAR = HOME + "/privacy-bounds.jar"
DATA = HOME + "/datasets"
MAIN_CLASS = "org.privacybounds.cli.Main"


def out(family):
    """The date partition of one job family."""
    return OUTPUT_BASE + "/" + family + "/dt={{ ds }}"


# task id -> (arguments of the privacy-bounds command, execution timeout, SLA)
TASKS = {
    "election_history": ([
        "election-history",
        "--data", DATA + "/smoothed_dp_paper_election_history_1900_2020.csv",
        "--years", "1920:2020", "--lost-fraction", "0.002", "--threshold", "0.51",
        "--out", out("election-history"),
    ], timedelta(hours=1), timedelta(hours=2)),
    "precincts": ([
        "precincts",
        "--data", DATA + "/pa_2020_general_precincts",
        "--office", "President",
        "--candidates", "Joseph R. Biden,Donald J. Trump,Jo Jorgensen",
        "--alias", "Jorgensen/Cohe=Jo Jorgensen",
        "--exclude", "Under Votes,Over Votes,Overvote,Not Assigned",
        "--sample-fraction", "0.5", "--epsilon", "0.5,2",
        "--out", out("precincts"),
    ], timedelta(hours=1), timedelta(hours=2)),
    "smoothed_sweep": ([
        "smoothed-sweep",
        "--n", "100000:100000:1000000", "--eta", "0.998", "--epsilon", "0.5,1,2,7",
        "--distributions-from-votes", DATA + "/president_2020_biden_trump_57_jurisdictions_538.csv",
        "--out", out("smoothed-sweep"),
    ], timedelta(hours=6), timedelta(hours=8)),
    "quantized_sgd": ([
        "quantized-sgd",
        "--preset", "fig2-right", "--n", "100:100:500", "--epsilon", "1", "--trials", "200",
        "--out", out("quantized-sgd"),
    ], timedelta(hours=3), timedelta(hours=4)),
    "pufferfish_table1": ([
        "pufferfish-sensitivity", "--table1", "--datasets", DATA,
        "--out", out("pufferfish-table1"),
    ], timedelta(hours=1), timedelta(hours=2)),
    "pabi_figure6": ([
        "pabi", "--figure", "6",
        "--out", out("pabi-figure6"),
    ], timedelta(hours=1), timedelta(hours=2)),
    "darrm_optimize": ([
        "darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1e-5",
        "--out", out("darrm-optimize"),
    ], timedelta(hours=1), timedelta(hours=2)),
    "bayes_audit": ([
        "bayes-audit", "--n", "100:100:1000", "--epsilon", "0.5,1,2",
        "--out", out("bayes-audit"),
    ], timedelta(hours=2), timedelta(hours=3)),
}

SPARK_CONF = {
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.showConsoleProgress": "false",
    "spark.task.maxFailures": "4",
}

default_args = {
    "owner": "privacy-bounds",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
    "retry_exponential_backoff": True,
}

with DAG(
    dag_id="privacy_bounds_election_sweep",
    description="Nightly exact privacy bounds (privacy-bounds): elections, precincts, smoothed DP, "
                "quantized SGD, Pufferfish/PABI, DaRRM, Bayesian audit",
    schedule="@daily",
    start_date=datetime(2026, 11, 1),
    catchup=False,
    max_active_runs=1,
    default_args=default_args,
    tags=["privacy-bounds", "spark"],
) as dag:
    for task_id, (args, timeout, sla) in TASKS.items():
        SparkSubmitOperator(
            task_id=task_id,
            application=JAR,
            java_class=MAIN_CLASS,
            application_args=args,
            conf=SPARK_CONF,
            conn_id="spark_default",
            name="privacy-bounds-" + task_id.replace("_", "-") + "-{{ ds }}",
            execution_timeout=timeout,
            sla=sla,
        )
