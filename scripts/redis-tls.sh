#!/usr/bin/env bash
# Certificates for a Redis that speaks TLS only: a CA made for this one use, and the Redis host's certificate
# (its address as the IP SAN) signed by it. The CA's key is deleted once it has signed, so nothing else can
# ever be signed with it. scripts/lab.sh calls this for the lab's Redis host; tests call it for 127.0.0.1.
#
#   scripts/redis-tls.sh DIR ADDRESS    writes DIR/ca.crt, DIR/redis.crt and DIR/redis.key (0600)
set -euo pipefail

dir=${1:-}
addr=${2:-}
die() {
  printf 'redis-tls: error: %s\n' "$*" >&2
  exit 1
}
[ -n "$dir" ] && [ -n "$addr" ] || die "usage: $0 DIR ADDRESS (e.g. $0 .lab/tls 198.18.0.4)"
[[ $addr =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] || die "ADDRESS must be an IPv4 address (the Redis host's), got '$addr'"
command -v openssl >/dev/null || die "openssl is missing; install it: apt-get install openssl"

mkdir -p "$dir"
chmod 700 "$dir"
(
  umask 077
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
    -subj "/CN=hedgebench Redis CA for $addr" -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$addr" \
    -keyout "$dir/redis.key" -out "$dir/redis.csr" 2>/dev/null
  printf 'subjectAltName=IP:%s\nextendedKeyUsage=serverAuth\n' "$addr" >"$dir/redis.ext"
  openssl x509 -req -in "$dir/redis.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
    -extfile "$dir/redis.ext" -out "$dir/redis.crt" 2>/dev/null
)
rm -f "$dir/ca.key" "$dir/ca.srl" "$dir/redis.csr" "$dir/redis.ext"
chmod 644 "$dir/ca.crt" "$dir/redis.crt"
openssl verify -CAfile "$dir/ca.crt" "$dir/redis.crt" >/dev/null || die "the certificate made in $dir does not verify against its CA"
