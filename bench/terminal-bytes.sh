#!/usr/bin/env bash
# Bytes written to the terminal per key press, measured on the real binary: tmux runs it at 130x40,
# pipe-pane copies everything it writes to a file, and each key press's bytes are the file's growth.
# Usage: bench/terminal-bytes.sh [path/to/paywall-sim]   (default: .build/release/paywall-sim)
set -euo pipefail
binary=${1:-.build/release/paywall-sim}
socket="paywall-sim-bytes-$$"
out=$(mktemp)
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -f "$out"' EXIT
tmux -L "$socket" -f /dev/null new-session -d -s b -x 130 -y 40 \
    "env LANG=C.UTF-8 TERM=xterm-256color $binary --ephemeral --latency none"
# Wait until the first frame is up, then start copying the pane's output.
for _ in $(seq 100); do tmux -L "$socket" capture-pane -t b -p | grep -q "Weekend market report" && break; sleep 0.05; done
tmux -L "$socket" pipe-pane -t b -o "cat >> $out"
settle() { sleep 0.4; }
total=0
count=0
# Apple's sheet opens on Cancel: Up then Enter subscribes.
for key in Down Enter Enter Down Enter Up Enter Escape Down Up Tab Tab Tab; do
    before=$(stat -c %s "$out")
    tmux -L "$socket" send-keys -t b "$key"
    settle
    after=$(stat -c %s "$out")
    bytes=$((after - before))
    printf '%-7s %6d bytes\n' "$key" "$bytes"
    total=$((total + bytes))
    count=$((count + 1))
done
echo "average: $((total / count)) bytes per key press over $count key presses"
# Quit the app as a person would and wait for it to exit: kill-server alone left it spinning on a dead terminal.
tmux -L "$socket" send-keys -t b q
for _ in $(seq 100); do tmux -L "$socket" has-session -t b 2>/dev/null || break; sleep 0.05; done
if tmux -L "$socket" has-session -t b 2>/dev/null; then echo "the app did not exit on q" >&2; exit 1; fi
