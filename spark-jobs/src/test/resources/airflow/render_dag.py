"""Imports a DAG file against the stub Airflow package and prints its tasks as JSON, with the templated fields
rendered for a run date and a set of Airflow Variables: {{ ds }} and {{ var.value.get('name', 'default') }}
(the only templates the DAG uses). Usage: render_dag.py DAG_FILE DS VARIABLES_JSON"""

import importlib.util
import json
import re
import sys
from datetime import timedelta

import airflow

dag_file, ds, variables = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])


def render(value):
    if isinstance(value, str):
        value = re.sub(r"\{\{\s*var\.value\.get\('([^']+)',\s*'([^']*)'\)\s*\}\}", lambda m: variables.get(m.group(1), m.group(2)), value)
        return value.replace("{{ ds }}", ds)
    if isinstance(value, list):
        return [render(v) for v in value]
    if isinstance(value, dict):
        return {k: render(v) for k, v in value.items()}
    return value


spec = importlib.util.spec_from_file_location("dag_under_test", dag_file)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
out = []
for dag in airflow.DAGS:
    for task in dag.tasks:
        k = task.kwargs
        row = {"dag": dag.dag_id, "task": task.task_id}
        for name, value in k.items():
            if isinstance(value, timedelta):
                row[name] = value.total_seconds()
            elif name in ("application", "application_args", "name", "conf"):
                row[name] = render(value)
            elif isinstance(value, (str, int, float, bool)) or value is None:
                row[name] = value
        out.append(row)
print(json.dumps(out))
