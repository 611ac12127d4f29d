"""A stand-in for SparkSubmitOperator that records its arguments and its DAG's default_args (tests only)."""

import airflow


class SparkSubmitOperator:
    template_fields = ("application", "conf", "application_args", "name")

    def __init__(self, task_id, **kwargs):
        dag = airflow.DAG.current
        merged = dict(dag.default_args) if dag is not None else {}
        merged.update(kwargs)
        self.task_id = task_id
        self.kwargs = merged
        if dag is not None:
            dag.tasks.append(self)
