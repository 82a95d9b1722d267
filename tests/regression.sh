#!/bin/sh
# regression.sh BUILD_DIR — `verletbench check`: every case in cases/ against
# the committed baseline (results/baseline).  Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
"$1/verletbench" check --quiet
rc=$?
if [ $rc -eq 0 ]; then echo "1 passed, 0 failed"; else
    echo "regression check failed (exit $rc): see the table above; if the change is intended, 'make baseline'"
    echo "0 passed, 1 failed"
fi
[ $rc -eq 0 ]
