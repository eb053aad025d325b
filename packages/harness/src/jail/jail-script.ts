/**
 * The jail's init, run by bash as root as PID 1 of fresh PID, mount, IPC and UTS namespaces
 * (`unshare`, itself run as root or through `sudo -n`: never an unprivileged user namespace).
 * Its arguments are a plan of steps (see `jailArgs`), then `run UID CWD N ENV… COMMAND ARGS…`:
 *
 * 1. `write P`: P stays writable. A descriptor to it is opened before anything is mounted,
 *    so P can be mounted back at its own path once its parents are hidden.
 * 2. `scratch P`: a fresh, private tmpfs at P (/tmp, /dev/shm): nothing of the host's.
 * 3. `user UID HOME`: /etc/passwd and /etc/group gain the jail's user (tools ask getpwuid).
 * 4. `hide P`: an empty tmpfs over a directory, an empty file over anything else.
 * 5. Every other mount is made read-only.
 * 6. The command runs as UID (no groups, no capabilities, no_new_privs), env exactly as given.
 *
 * Standard input is the lifeline: a line `TERM` asks every process of the jail to stop, and
 * end of file (the action closed it, or died) makes init exit — and when a PID namespace's
 * init exits, the kernel kills everything left in it. Init's exit code is the command's
 * (128+N for signal N), which is the only verdict the caller reads; it cannot come from a
 * file the jail could write. A step that fails exits 125 before the command ever starts.
 */
export const JAIL_INIT = `
set -euo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
umask 022
fail() { echo "loopx-jail: $*" >&2; exit 125; }
for tool in mount mountpoint setpriv env; do
  command -v "$tool" >/dev/null || fail "$tool is missing: install util-linux and coreutils"
done
keep=() fds=() writable=() scratch=""
while [ "$#" -gt 0 ]; do
  step=$1; shift
  case $step in
    write)
      [ -d "$1" ] || fail "$1 is not a directory"
      exec {fd}<"$1" || fail "cannot open $1"
      fds+=("$fd"); writable+=("$1"); keep+=("$1"); shift ;;
    scratch)
      mount -t tmpfs -o mode=1777,nosuid,nodev loopx-scratch "$1" || fail "cannot mount a tmpfs at $1"
      [ -n "$scratch" ] || scratch=$1
      keep+=("$1"); shift ;;
    user)
      [ -n "$scratch" ] || fail "user needs a scratch directory first"
      { cat /etc/passwd; echo "loopx:x:$1:$1:LoopX agent:$2:/bin/sh"; } > "$scratch/.loopx-passwd"
      { cat /etc/group; echo "loopx:x:$1:"; } > "$scratch/.loopx-group"
      chmod 644 "$scratch/.loopx-passwd" "$scratch/.loopx-group"
      mount --bind "$scratch/.loopx-passwd" /etc/passwd || fail "cannot mount /etc/passwd"
      mount --bind "$scratch/.loopx-group" /etc/group || fail "cannot mount /etc/group"
      shift 2 ;;
    hide)
      if [ -d "$1" ] && [ ! -L "$1" ]; then
        mount -t tmpfs -o mode=755,size=1m,nosuid,nodev loopx-hidden "$1" || fail "cannot hide $1"
      elif [ -e "$1" ] || [ -L "$1" ]; then
        [ -n "$scratch" ] || fail "hiding a file needs a scratch directory first"
        : > "$scratch/.loopx-empty"; chmod 444 "$scratch/.loopx-empty"
        mount --bind "$scratch/.loopx-empty" "$1" || fail "cannot hide $1"
      fi
      shift ;;
    run) break ;;
    *) fail "unknown step $step" ;;
  esac
done
# Back at their own paths: --no-canonicalize, or mount would resolve the descriptor's path in
# the new view (the hidden, empty one) instead of the directory it was opened on.
for i in "\${!fds[@]}"; do
  mkdir -p "\${writable[$i]}"
  mount --no-canonicalize --bind "/proc/$$/fd/\${fds[$i]}" "\${writable[$i]}" || fail "cannot mount \${writable[$i]} back"
done
mapfile -t mounts < /proc/self/mountinfo
for line in "\${mounts[@]}"; do
  read -r _ _ _ _ mp _ <<< "$line"
  printf -v mp '%b' "\${mp//\\\\/\\\\0}"
  case $mp in /proc|/proc/*) continue ;; esac
  for k in "\${keep[@]}"; do [ "$k" = "$mp" ] && continue 2; done
  # A mount under a hidden directory is out of reach already; its path now names nothing.
  mountpoint -q "$mp" 2>/dev/null || continue
  mount -o remount,bind,ro "$mp" 2>/dev/null || fail "cannot make $mp read-only"
done
for fd in "\${fds[@]}"; do exec {fd}<&-; done
uid=$1 cwd=$2 n=$3; shift 3
env=("\${@:1:$n}"); shift "$n"
cd "$cwd" || fail "cannot enter $cwd"
exec 3<&0 </dev/null
echo "loopx-jail: uid $uid ready" >&2
trap 'exit 137' TERM
(
  trap - TERM
  while IFS= read -r line <&3; do
    if [ "$line" = TERM ]; then kill -TERM -1 2>/dev/null || true; fi
  done
  kill -TERM 1
) &
set +e
setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all -- env -i "\${env[@]}" "$@" 3<&- &
child=$!
wait "$child"
exit $?
`;

/** The line init prints once every step succeeded, just before the command starts. */
export const READY = /^loopx-jail: uid ([0-9]+) ready$/m;

export interface JailPlan {
  uid: number;
  home: string;
  writable: string[];
  scratch: string[];
  hidden: string[];
  cwd: string;
  env: Record<string, string>;
  command: string;
  args: string[];
}

/** The argument vector for `bash -c JAIL_INIT loopx-jail …`, steps in the order init needs. */
export function jailArgs(plan: JailPlan): string[] {
  const byDepth = (a: string, b: string) => a.length - b.length;
  const env = Object.entries(plan.env).map(([k, v]) => `${k}=${v}`);
  return [
    ...[...plan.writable].sort(byDepth).flatMap((p) => ["write", p]),
    ...plan.scratch.flatMap((p) => ["scratch", p]),
    "user",
    String(plan.uid),
    plan.home,
    ...[...plan.hidden].sort(byDepth).flatMap((p) => ["hide", p]),
    "run",
    String(plan.uid),
    plan.cwd,
    String(env.length),
    ...env,
    plan.command,
    ...plan.args,
  ];
}
