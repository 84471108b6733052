#!/bin/bash
# benchscope-merge.sh - the step after the array (sbatch
# --dependency=afterok:ARRAY_JOB): merge the shards' traces into one and
# print its report.
#
# Environment: BENCHSCOPE, BS_OUT (where the shards are; default: the submit
# directory). Writes $BS_OUT/suite.trace. Exit status: benchscope merge's or
# report's (README "Exit status"); 3 when there is no shard trace.
#SBATCH --job-name=benchscope-merge
#SBATCH --ntasks=1
#SBATCH --output=benchscope-merge.out
set -u
out=${BS_OUT:-${SLURM_SUBMIT_DIR:-$PWD}}
bs=${BENCHSCOPE:-benchscope}
shopt -s nullglob
shards=("$out"/shard-*.trace)
if [ ${#shards[@]} -eq 0 ]; then
	echo "benchscope-merge.sh: no shard-*.trace in $out; exit 3" >&2
	exit 3
fi
"$bs" merge "${shards[@]}" -o "$out/suite.trace" || exit
exec "$bs" report "$out/suite.trace"
