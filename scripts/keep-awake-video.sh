#!/usr/bin/env bash
# Makes static/keep-awake.mp4 and static/keep-awake.webm, the silent black video
# static/wakelock.js plays where the browser has no Screen Wake Lock: 4 seconds
# of 16×16 black at 1 frame a second with a silent audio track (Firefox keeps the
# screen on only for a video with sound; Safari only for one it could hear).
# Needs ffmpeg (apt-get install ffmpeg); the files are committed, so nothing runs this.
set -euo pipefail
cd "$(dirname "$0")/../static"
black=(-f lavfi -i color=c=black:s=16x16:r=1:d=4)
silence=(-f lavfi -i anullsrc=r=8000:cl=mono)
ffmpeg -hide_banner -loglevel error -y "${black[@]}" "${silence[@]}" -t 4 \
  -c:v libx264 -profile:v baseline -level 1.0 -pix_fmt yuv420p -tune stillimage -g 4 \
  -c:a aac -b:a 8k -ac 1 -ar 8000 -movflags +faststart -map_metadata -1 \
  -fflags +bitexact -flags:v +bitexact -flags:a +bitexact keep-awake.mp4
ffmpeg -hide_banner -loglevel error -y "${black[@]}" "${silence[@]}" -t 4 \
  -c:v libvpx -b:v 8k -c:a libopus -b:a 6k -ac 1 -map_metadata -1 -fflags +bitexact \
  keep-awake.webm
ls -l keep-awake.mp4 keep-awake.webm
