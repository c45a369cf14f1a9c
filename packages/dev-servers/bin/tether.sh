#!/usr/bin/env bash
# Runs "$@" and stops it when this script's standard input closes (the parent
# exited or was killed) or on SIGTERM/SIGINT, so a server started by the test
# kit never outlives the process that started it.
exec 3<&0
"$@" </dev/null &
child=$!
cat <&3 >/dev/null &
watcher=$!
stop() {
  kill -TERM "$child" 2>/dev/null
  wait "$child"
  status=$?
  kill "$watcher" 2>/dev/null
  exit "$status"
}
trap stop TERM INT
wait -n "$child" "$watcher"
stop
