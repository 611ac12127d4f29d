# Shared by the scripts: project root, build-on-demand, the JVM flags Spark needs on Java 17.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The Spark line to build and run: PRIVACY_BOUNDS_SPARK=3.5 (the default, module spark-jobs) or 4 (spark-jobs-spark4, the same
# sources built against Spark 4).
case "${PRIVACY_BOUNDS_SPARK:-3.5}" in
  3.5) MODULE=spark-jobs ;;
  4) MODULE=spark-jobs-spark4 ;;
  *) echo "error: PRIVACY_BOUNDS_SPARK = ${PRIVACY_BOUNDS_SPARK}: allowed 3.5 (the default) or 4" >&2; exit 2 ;;
esac
JAR="$ROOT/$MODULE/target/privacy-bounds.jar"
CP_FILE="$ROOT/$MODULE/target/classpath.txt"
SPARK_CP_FILE="$ROOT/$MODULE/target/spark-classpath.txt"

# Java 17 module openings Spark needs; the same list as the surefire argLine in pom.xml.
ADD_OPENS=(
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/sun.nio.cs=ALL-UNNAMED --add-opens=java.base/sun.security.action=ALL-UNNAMED
  --add-opens=java.base/sun.util.calendar=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false
)

# Whether a process runs: kill -0 alone also finds a killed process nobody has reaped yet (a zombie, where PID 1 does not
# reap the orphans it inherits, e.g. in some containers), which would stop cluster-up from restarting a lost worker.
pid_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state
  state="$(ps -o stat= -p "$1" 2>/dev/null || true)"
  [[ -n "$state" && "$state" != Z* ]]
}

# Builds the jar and the classpath files when any is missing or older than the sources.
ensure_built() {
  if [[ ! -f "$JAR" || ! -f "$CP_FILE" || ! -f "$SPARK_CP_FILE" ]] || [[ -n "$(find "$ROOT/pom.xml" "$ROOT/core-math" "$ROOT/spark-jobs" "$ROOT/$MODULE" \
      \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$JAR" -print -quit 2>/dev/null)" ]]; then
    echo "privacy-bounds: building (mvn package -DskipTests; the first build downloads Spark and the other dependencies, a few minutes) ..." >&2
    # without colour codes: Maven's -q still emits ANSI resets, which a user's terminal log would keep
    (cd "$ROOT" && mvn -B -q -Dstyle.color=never -DskipTests package -pl "$MODULE" -am 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2; exit "${PIPESTATUS[0]}") &
    local build=$! start=$SECONDS next=10
    # a line every 10 s while it builds
    while kill -0 "$build" 2>/dev/null; do
      sleep 1
      if (( SECONDS - start >= next )) && kill -0 "$build" 2>/dev/null; then
        echo "privacy-bounds: building, $((SECONDS - start)) s ..." >&2
        next=$((next + 10))
      fi
    done
    wait "$build"
  fi
}
