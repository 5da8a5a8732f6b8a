#!/usr/bin/env bash
# Builds Tasman's image and runs it as an operator would, checking each step:
#   1. the embedded PostgreSQL in the image's volume: /ready, an account, a message delivered by the built-in
#      simulator, and `docker stop` draining to exit status 0;
#   2. the production layout on an external PostgreSQL (a fresh database): an API container and a workers
#      container on the one database, a message sent through the first and delivered by the second, both stopped
#      cleanly.
# Containers use the host's network only (--network host) and listen on 127.0.0.1, on ports found free here.
# Settings: TASMAN_IMAGE (an image to test instead of building one), SMOKE_DATABASE_ADMIN_URL (a PostgreSQL
# superuser's URL for step 2; default postgres://postgres@127.0.0.1:5432/postgres; step 2 is skipped with a line
# when that server does not answer).
set -euo pipefail
cd "$(dirname "$0")/../.."

admin_url="${SMOKE_DATABASE_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
run_id="tasman-smoke-$$"
containers=()
database=""
say() { printf 'smoke: %s\n' "$*"; }
fail() {
  printf 'smoke: FAILED: %s\n' "$*" >&2
  for c in "${containers[@]}"; do
    printf 'smoke: the log of %s, requests left out:\n' "$c" >&2
    docker logs "$c" 2>&1 | grep -v '"msg":"request"' | tail -n 30 >&2 || true
  done
  exit 1
}
cleanup() {
  for c in "${containers[@]}"; do docker rm -f -v "$c" >/dev/null 2>&1 || true; done
  if [ -n "$database" ]; then psql -q "$admin_url" -c "drop database if exists $database with (force)" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
# timeout(1) and Ctrl-C end the script through its EXIT trap, so no container is left running.
trap 'exit 143' TERM
trap 'exit 130' INT

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# GET or POST with curl; prints the body, fails on any status but the expected one.
http() { # method url token expected-status [json-body]
  local out status
  out="$(curl -sS -o - -w '\n%{http_code}' -X "$1" "$2" -H "Authorization: Bearer $3" \
    ${5:+-H 'Content-Type: application/json' --data "$5"})" || fail "$1 $2: curl failed"
  status="${out##*$'\n'}"
  out="${out%$'\n'*}"
  [ "$status" = "$4" ] || fail "$1 $2 answered $status, expected $4: $out"
  printf '%s' "$out"
}
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];console.log(v??"")})' "$1"; }

wait_ready() { # url container
  local deadline=$((SECONDS + 180))
  until curl -sf -o /dev/null "$1/ready"; do
    [ "$(docker inspect -f '{{.State.Running}}' "$2")" = true ] || fail "$2 exited before it was ready"
    [ $SECONDS -lt $deadline ] || fail "$1/ready did not answer 200 within 180 s"
    sleep 1
  done
}

# Sends one message as a new account and waits until the simulator's receipt marks it delivered.
send_and_deliver() { # api-url operator-token
  local account key message status deadline=$((SECONDS + 120))
  account="$(http POST "$1/admin/accounts" "$2" 201 '{"business_name":"Smoke Test Pty Ltd","email":"smoke@example.com"}')"
  key="$(field api_key <<<"$account")"
  message="$(http POST "$1/send" "$key" 200 '{"to":"0412 345 678","message":"Hello from the container"}' | field message_id)"
  [ -n "$message" ] || fail "no message_id from /send"
  until status="$(http GET "$1/message/$message" "$key" 200 | field message.status)"; [ "$status" = delivered ]; do
    [ $SECONDS -lt $deadline ] || fail "message $message is $status, not delivered, after 120 s"
    sleep 1
  done
  say "message $message delivered"
}

stop_cleanly() { # container
  local started=$SECONDS code
  docker stop -t 30 "$1" >/dev/null
  code="$(docker inspect -f '{{.State.ExitCode}}' "$1")"
  [ "$code" = 0 ] || fail "$1 exited with status $code after docker stop"
  docker logs "$1" 2>&1 | grep -q '"msg":"shutting down"' || fail "$1 logged no shutdown"
  say "$1 stopped cleanly in $((SECONDS - started)) s"
}

image="${TASMAN_IMAGE:-}"
if [ -z "$image" ]; then
  started=$SECONDS
  image="$(deploy/docker/build.sh tasman:smoke)"
  say "built $image in $((SECONDS - started)) s"
fi
[ "$(docker image inspect -f '{{.Config.User}}' "$image")" = tasman ] || fail "$image does not run as the tasman user"

say "1. embedded PostgreSQL in the image's volume"
port="$(free_port)"; sim="$(free_port)"; control="$(free_port)"
c="$run_id-embedded"
containers+=("$c")
docker run -d --name "$c" --network host -e HOST=127.0.0.1 -e PORT="$port" -e SIM_PORT="$sim" \
  -e SIM_CONTROL_PORT="$control" -e TASMAN_WORKERS=1 "$image" >/dev/null
wait_ready "http://127.0.0.1:$port" "$c"
token="$(docker exec "$c" cat /var/lib/tasman/admin.token)"
send_and_deliver "http://127.0.0.1:$port" "$token"
deadline=$((SECONDS + 120))
until [ "$(docker inspect -f '{{.State.Health.Status}}' "$c")" = healthy ]; do
  [ $SECONDS -lt $deadline ] || fail "the HEALTHCHECK did not report healthy within 120 s"
  sleep 2
done
say "HEALTHCHECK healthy"
stop_cleanly "$c"

say "2. an API container and a workers container on one external PostgreSQL"
if ! psql -q "$admin_url" -c 'select 1' >/dev/null 2>&1; then
  say "skipped: no PostgreSQL answers at $admin_url (set SMOKE_DATABASE_ADMIN_URL)"
  say "passed"
  exit 0
fi
database="tasman_smoke_$$"
psql -q "$admin_url" -c "create database $database" >/dev/null
database_url="$(node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.href)' "$admin_url" "$database")"
port="$(free_port)"; sim="$(free_port)"; control="$(free_port)"; api_sim="$(free_port)"; api_control="$(free_port)"
token="smoke-$(node -e 'console.log(require("crypto").randomBytes(16).toString("hex"))')"
secret="$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')"
common=(--network host -e HOST=127.0.0.1 -e DATABASE_URL="$database_url" -e TASMAN_ADMIN_TOKEN="$token"
  -e TASMAN_SECRET_KEY="$secret" -e TASMAN_SIMULATOR=true)
workers="$run_id-workers"; api="$run_id-api"
containers+=("$workers" "$api")
# Without a carrier every service runs a built-in SMSC; the workers' carrier link binds to theirs. On the one host
# network each needs ports of its own.
docker run -d --name "$workers" "${common[@]}" -e TASMAN_ROLES=workers -e SIM_PORT="$sim" -e SIM_CONTROL_PORT="$control" \
  --no-healthcheck "$image" >/dev/null
docker run -d --name "$api" "${common[@]}" -e TASMAN_ROLES=api -e PORT="$port" -e TASMAN_WORKERS=1 \
  -e SIM_PORT="$api_sim" -e SIM_CONTROL_PORT="$api_control" "$image" >/dev/null
wait_ready "http://127.0.0.1:$port" "$api"
send_and_deliver "http://127.0.0.1:$port" "$token"
stop_cleanly "$api"
stop_cleanly "$workers"
say "passed"
