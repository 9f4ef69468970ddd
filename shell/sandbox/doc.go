// Package sandbox runs one command confined to the jail: editor::run's
// process, and the only place editord starts a program it did not write.
//
// Defence in depth, each layer on its own sound:
//
//   - Namespaces. The command starts in new user, mount, PID, IPC and UTS
//     namespaces, and a new network namespace (only a loopback of its own)
//     unless the configuration allows the network. Its user id inside is
//     the one outside, so the files it writes are owned as usual.
//   - An init of our own. The editord binary re-executes itself
//     (/proc/self/exe, recognised by Init at the top of main) as PID 1 of
//     the new PID namespace. Before it starts the command it makes its
//     mounts private, mounts a /proc of the new PID namespace, bind-mounts
//     every .git folder read-only (no hook can be planted), and mounts an
//     empty, unreadable, read-only "void" over every path the deny globs
//     match and over the state dir when it lies in the jail. Landlock is an
//     allow-list over paths, and granting a jail root grants everything
//     beneath it; the voids keep a denied file inside a granted folder
//     unreadable, unwritable, and impossible to remove or rename (a mount
//     point is busy). A serving editord (KeepSpare) starts the next
//     command's init as soon as one ends, so that a command waits neither
//     for the exec of editord nor (as root) for its move into a pids
//     cgroup; the spare reads nothing until it is given its command.
//   - Landlock. Reads (and execution) are allowed beneath the jail roots,
//     the toolchain folders the configuration names and the system
//     folders; writes only beneath the jail roots, the run's private temp
//     folder and the writable folders the configuration names. A symlink
//     or a hard link cannot widen that (Landlock checks the file reached,
//     and refuses links and renames that would give a file more rights),
//     and a landlocked process can neither mount nor unmount, so it cannot
//     lift a void. Abstract UNIX sockets and signals are scoped to the
//     sandbox (Landlock ABI 6).
//   - No privilege. The init drops every capability from the bounding set
//     and locks "root is not special" (securebits) on the thread that starts
//     the command, with no_new_privs: even when editord runs as root, the
//     command holds no capability, so file permissions bind it (a void is
//     mode 000).
//   - Limits. RLIMIT_NPROC bounds processes and threads, RLIMIT_DATA memory
//     per process, RLIMIT_CPU the CPU time, RLIMIT_FSIZE a file's size and
//     RLIMIT_CORE is 0. The kernel does not apply RLIMIT_NPROC to root, so
//     when editord runs as root the process limit is a pids cgroup made for
//     the run instead (when the machine lets us make one).
//   - The end. When the command exits, the init exits and the kernel kills
//     everything left in its PID namespace; at the timeout, when the context
//     ends (the caller went away) or on Kill, the init is killed with the
//     same effect. The init dies with editord (PR_SET_PDEATHSIG), so nothing
//     outlives it either.
package sandbox
