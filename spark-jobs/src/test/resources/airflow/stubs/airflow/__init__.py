"""A stand-in for Airflow's package, enough to import a DAG file and record its tasks (tests only)."""

DAGS = []


class DAG:
    def __init__(self, dag_id, default_args=None, **kwargs):
        self.dag_id = dag_id
        self.default_args = default_args or {}
        self.kwargs = kwargs
        self.tasks = []
        DAGS.append(self)

    def __enter__(self):
        DAG.current = self
        return self

    def __exit__(self, *exc):
        DAG.current = None
        return False


DAG.current = None
