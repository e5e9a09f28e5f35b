#!/usr/bin/env bash
# Lay out the pinned sources of SOURCES under src/NAME (git-ignored). Each repository must be present as a bare git
# directory MIRROR/OWNER+NAME/repo (a GitHub snapshot: `git clone --mirror https://github.com/OWNER/NAME
# MIRROR/OWNER+NAME/repo` where GitHub is reachable). Usage: bash sources.sh MIRROR
set -euo pipefail
mirror=${1:?usage: sources.sh MIRROR}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
grep -vE '^\s*(#|$)' "$here/SOURCES" | while read -r name repo commit _; do
    git_dir="$mirror/${repo/\//+}/repo"
    rm -rf "$here/src/$name"; mkdir -p "$here/src/$name"
    git --git-dir="$git_dir" archive "$commit" | tar -x -C "$here/src/$name"
    echo "src/$name: $repo @ $commit"
done
