#!/bin/bash
# submit.sh - queue the array of N shards, then the merge step after it.
#   examples/slurm/submit.sh N PROG [ARGS...]
# Prints the two job ids. The merge runs only if every shard succeeded
# (afterok); an empty shard (N larger than the suite) succeeds.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=$1
shift
array=$(sbatch --parsable --array=0-$((n - 1)) "$here/benchscope-array.sh" "$@")
merge=$(sbatch --parsable --dependency=afterok:"${array%%;*}" "$here/benchscope-merge.sh")
echo "array $array merge $merge"
