# tests/qemu/chains.sh on the g5 machine (mac99, one 970FX).
CHAINS_PROFILE=g5 exec bash "$(dirname "$0")/chains.sh"
