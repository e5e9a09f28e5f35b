#!/usr/bin/env bash
# The transmission-remote calls of samples/gen/ecosystem/nonmcp3.sh scenario transmission, run from the daemon's run
# folder (relative paths only): make a small trackerless torrent, then over RPC: list (empty), session stats, add it
# (paused), list, stop, start, remove. Every call bounded (timeout 10).   bash client.sh PORT
set -u
R="timeout 10 transmission-remote 127.0.0.1:$1"
printf 'MCP is not Transmission.\n' > note.txt
timeout 10 transmission-create -o note.torrent note.txt >/dev/null
$R -l; $R -st; $R -a note.torrent; $R -l; $R -t 1 -S; $R -t 1 -s; sleep 0.3; $R -l; $R -t 1 -r; $R -l
