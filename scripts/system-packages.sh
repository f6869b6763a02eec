#!/usr/bin/env bash
# Installs the Debian packages Hark needs when they are missing: ffmpeg (decoding, silence detection),
# pocketsphinx and its US English model (speech recognition), flite (its `t2p` gives vocabulary terms
# the dictionary lacks a pronunciation; the tests also synthesise speech with it), and, with --tests,
# postgresql (the external server the scale-out tests run against).
# Needs root and apt-get; elsewhere it names the command to run and stops.
set -euo pipefail

packages=()
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || packages+=(ffmpeg)
command -v pocketsphinx_continuous >/dev/null || packages+=(pocketsphinx)
model_dir="${HARK_POCKETSPHINX_MODEL_DIR:-/usr/share/pocketsphinx/model/en-us}"
[ -f "$model_dir/en-us.lm.bin" ] || packages+=(pocketsphinx-en-us)
command -v t2p >/dev/null || packages+=(flite)
if [ "${1:-}" = "--tests" ]; then
  compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || packages+=(postgresql)
fi
[ ${#packages[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "hark: installing ${packages[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  exit 0
fi

echo "hark: these system packages are missing: ${packages[*]}" >&2
echo "hark: install them with:  sudo apt-get install -y ${packages[*]}" >&2
exit 1
