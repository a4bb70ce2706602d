#!/bin/sh
# The scaling table of docs/mpi.md: bench_mpi_scaling at 2 ... 32 ranks
# (oversubscribed on small machines), both writers, fixed calls per rank.
#   bench/bench_mpi_scaling.sh BUILD_DIR [calls_per_rank [rounds [auto|none]]]
set -eu
build=$1 calls=${2:-200000} rounds=${3:-3} compression=${4:-auto}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
header=header
for np in 2 4 8 16 32; do
    # shellcheck disable=SC2086
    mpirun $flags -np "$np" "$build/bench/bench_mpi_scaling" "$calls" "$rounds" "$compression" \
        $header
    header=-
done
