#!/bin/sh
# compare.sh measures mcpsh's batch mode against bare go-sdk clients doing the
# same work over one stdio session to the same server, and prints three ratios
# (medians of alternating runs; wall time, and the clients' user+sys CPU):
#
#   run --no-log   500 read-only calls  vs  bench baseline (goal ≤ 1.15×)
#   run, log on    500 read-only calls  vs  bench baseline (goal ≤ 1.50×)
#   tools --json   connect and list     vs  bench baseline (goal ≤ 1.25×)
#
# It needs only Go: the binaries are built into a temporary folder.
#
#   bench/compare.sh                 # 15 rounds, 500 calls
#   bench/compare.sh -runs 15 -calls 1000
#   MCPSH_BIN=/tmp/mcpsh-old bench/compare.sh   # measure another mcpsh build
#
# The log goes to a temporary folder next to the binaries ($TMPDIR): put that
# on the disk you care about, since fsync costs what the disk makes it cost.
set -eu
cd "$(dirname "$0")/.."
exec go run ./bench/compare "$@"
