#!/bin/sh
# Helpers for the systemd guest's tests (tests/vm/systemd/guest/t-*.sh),
# sourced after tests/vm/guest/lib.sh (copied beside them in the payload).
#
# in_scope AS UNIT CMD...: runs CMD in a new transient scope UNIT with
# Delegate=yes (root: the system manager's; AS=tc: that user's own manager,
# systemd-run --user), from a leaf "main" inside it, so that the scope is
# the delegated parent of toolcell's own cgroup. After CMD, still inside,
# it keeps what the scope looked like in files under $TC_W: scope.path (the
# scope's cgroup directory), scope.leaves (toolcell-run-* left there, one a
# line), scope.subtree_control, scope.memory.events. Its status is CMD's.
# The scope (with its cgroup) is gone when in_scope returns.
PAYLOAD=${PAYLOAD:-/srv/tcvm}
TC_USER=tc
TC_USER_UID=1000

# shellcheck disable=SC2016 # expanded by the inner sh
tc_scope_body='
cg=/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)
mkdir "$cg/main" && echo $$ >"$cg/main/cgroup.procs" || exit 126
echo "$cg" >"$TC_W/scope.path"
"$@"
rc=$?
for leaf in "$cg"/toolcell-run-*; do
	[ -d "$leaf" ] && echo "$leaf"
done >"$TC_W/scope.leaves"
cat "$cg/cgroup.subtree_control" >"$TC_W/scope.subtree_control"
cat "$cg/memory.events" >"$TC_W/scope.memory.events"
exit $rc'

in_scope() {
	as=$1
	unit=$2
	shift 2
	rm -f "$TC_W"/scope.*
	if [ "$as" = root ]; then
		TC_W=$TC_W systemd-run --quiet --scope -p Delegate=yes --unit="$unit" \
			-- sh -c "$tc_scope_body" sh "$@"
	else
		as_user env TC_W="$TC_W" systemd-run --user --quiet --scope -p Delegate=yes \
			--unit="$unit" -- sh -c "$tc_scope_body" sh "$@"
	fi
}

# as_user CMD...: CMD as the user tc in its login environment: its own
# runtime folder and session bus, which its user manager (started by
# user_manager) owns
as_user() {
	runuser -u "$TC_USER" -- env -i PATH=/usr/bin:/bin HOME=/home/$TC_USER \
		USER=$TC_USER LOGNAME=$TC_USER LANG=C.UTF-8 \
		XDG_RUNTIME_DIR=/run/user/$TC_USER_UID \
		DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$TC_USER_UID/bus "$@"
}

# user_manager: the user's systemd (user@1000.service) runs, as on a server
# where an administrator let a service account linger; status 1 when it
# does not come up within 120 s
user_manager() {
	loginctl enable-linger "$TC_USER" || return 1
	i=0
	while [ $i -lt 240 ]; do
		if [ "$(systemctl is-active "user@$TC_USER_UID.service")" = active ] &&
			[ -S "/run/user/$TC_USER_UID/bus" ]; then
			return 0
		fi
		sleep 0.5
		i=$((i + 1))
	done
	systemctl status "user@$TC_USER_UID.service" --no-pager 2>&1 | sed 's/^/  | /'
	return 1
}

# scope_leaves: what scope.leaves says, on one line
scope_leaves() {
	tr '\n' ' ' <"$TC_W/scope.leaves" 2>/dev/null || echo "(no scope.leaves)"
}
