#!/bin/sh
# compare.sh measures mcpsh's batch mode against bare go-sdk clients doing the
# same work over one stdio session to the same server, and prints three ratios
# (medians of alternating runs; wall time, and the clients' user+sys CPU),
# against the demo server and against the fast server (constant answers):
#
#                                       goal: demo    fast
#   run --no-log   500 read-only calls  vs  bare  ≤ 1.15×  ≤ 1.15× (cpu ≤ 1.5×)
#   run, log on    500 read-only calls  vs  bare  ≤ 1.50×  ≤ 1.30×
#   tools --json   connect and list     vs  bare  ≤ 1.25×  ≤ 1.15×
#
# and what mcpsh proxy adds to a bare go-sdk host's read-only call, against
# the host calling the same server directly (goal: under 1 ms at the median
# on the fast server).
#
# It needs only Go: the binaries are built into a temporary folder.
#
#   internal/bench/compare.sh                 # 15 rounds, 500 calls, both servers
#   internal/bench/compare.sh -runs 15 -calls 1000 -servers fast -only nolog,proxy
#   internal/bench/compare.sh -only proxy -proxy-flags=--no-log
#   MCPSH_BIN=/tmp/mcpsh-old internal/bench/compare.sh   # measure another mcpsh build
#
# The log goes to a temporary folder next to the binaries ($TMPDIR): put that
# on the disk you care about, since fsync costs what the disk makes it cost.
set -eu
cd "$(dirname "$0")/../.."
exec go run ./internal/bench/compare "$@"
