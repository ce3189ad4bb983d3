/* Socket system calls: user file descriptors (3 and up, per process) over lwIP's sockets.
 *
 * Every argument is checked and every user buffer copied through uaccess, as for all system
 * calls; lwIP only ever sees kernel memory. Blocking calls block the calling thread in lwIP's
 * mailboxes and semaphores (kernel/net/sys_arch.c); a thread of an exiting process stops
 * waiting, and the process's sockets are closed when its last thread leaves. */
#include "lwip/opt.h"
#include "lwip/sockets.h"
#include "net.h"
#include "netdev.h"
#include "../abi/syscall_nr.h"
#include "../proc/process.h"
#include "../mm/uaccess.h"
#include "../mm/kmem.h"
#include "common/lib/spinlock.h"
#include "common/lib/string.h"
#include "../proc/thread.h"
#include "../arch/timer.h"
#include "../lock/wait.h"

#define IO_CHUNK (64 * 1024)          /* bounce buffer per send/recv call */
#define POLL_MAX 160                  /* a server polls all its sockets (PROC_MAX_SOCKETS) */
#define POLL_ON_STACK 16
#define POLL_SLICE_MS 100             /* poll() re-checks for process exit this often */

static uint32_t sockets_open;

uint32_t net_sockets_open(void)
{
	return __atomic_load_n(&sockets_open, __ATOMIC_RELAXED);
}

/* The lwIP socket behind a user fd, or -1. */
static int lwip_fd(struct process *p, uint64_t fd)
{
	if (fd < 3 || fd >= 3 + PROC_MAX_SOCKETS)
		return -1;
	int s = __atomic_load_n(&p->sockets[fd - 3], __ATOMIC_ACQUIRE);
	return s ? s - 1 : -1;
}

/* Gives lwIP socket s a user fd; closes it if the process has none left. */
static long install(struct process *p, int s)
{
	spin_lock(&p->lock);
	for (int i = 0; i < PROC_MAX_SOCKETS; i++)
		if (!p->sockets[i]) {
			p->sockets[i] = s + 1;
			spin_unlock(&p->lock);
			__atomic_add_fetch(&sockets_open, 1, __ATOMIC_RELAXED);
			return 3 + i;
		}
	spin_unlock(&p->lock);
	lwip_close(s);
	return -KOV_EMFILE;
}

/* The calling thread's bounce buffer (IO_CHUNK bytes, kept until the thread ends: a fresh
 * zeroed block per call cost a tenth of the instructions of a large send). */
static uint8_t *bounce(void)
{
	struct thread *t = current_thread();
	if (!t->net_buf)
		t->net_buf = kmalloc(IO_CHUNK);
	return t->net_buf;
}

static long error(void)
{
	int e = errno;
	return e > 0 ? -e : -KOV_EINVAL;
}

static long sys_socket(uint64_t domain, uint64_t type, uint64_t proto)
{
	if (domain != AF_INET)
		return -KOV_EINVAL;
	if (type != SOCK_STREAM && type != SOCK_DGRAM)
		return -KOV_EINVAL;
	if (proto != 0 && proto != (type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP))
		return -KOV_EINVAL;
	int s = lwip_socket(AF_INET, (int)type, 0);
	if (s < 0)
		return error();
	return install(current_process(), s);
}

static long addr_from_user(struct sockaddr_in *sa, uint64_t uaddr, uint64_t len)
{
	if (len < sizeof *sa || len > 128)
		return -KOV_EINVAL;
	long rc = copy_from_user(sa, uaddr, sizeof *sa);
	if (rc)
		return rc;
	if (sa->sin_family != AF_INET)
		return -KOV_EINVAL;
	sa->sin_len = sizeof *sa;
	return 0;
}

/* Copies an address out to (uaddr, ulen) as accept() and getsockname() do. */
static long addr_to_user(const struct sockaddr_in *sa, uint64_t uaddr, uint64_t ulen)
{
	if (!uaddr)
		return 0;
	uint32_t len;
	long rc = copy_from_user(&len, ulen, sizeof len);
	if (rc)
		return rc;
	uint32_t n = len < sizeof *sa ? len : sizeof *sa;
	if ((rc = copy_to_user(uaddr, sa, n)))
		return rc;
	len = sizeof *sa;
	return copy_to_user(ulen, &len, sizeof len);
}

static long sys_bind_connect(bool bind, uint64_t fd, uint64_t uaddr, uint64_t len)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	struct sockaddr_in sa;
	long rc = addr_from_user(&sa, uaddr, len);
	if (rc)
		return rc;
	if (bind) {
		/* lwIP's tcp_bind puts an already bound socket on its list of bound PCBs a second
		 * time when the port differs, which makes the list a cycle: the next bind or
		 * connect then loops forever under the stack's lock (sysfuzz found it). POSIX
		 * answers a second bind with EINVAL. */
		struct sockaddr_in was;
		socklen_t wlen = sizeof was;
		if (lwip_getsockname(s, (struct sockaddr *)&was, &wlen) == 0 && was.sin_port)
			return -KOV_EINVAL;
	}
	int r = bind ? lwip_bind(s, (struct sockaddr *)&sa, sizeof sa)
		     : lwip_connect(s, (struct sockaddr *)&sa, sizeof sa);
	if (r >= 0)
		return 0;
	long e = error();
	/* lwIP reports a connection reset while connecting, POSIX calls that refused. */
	return !bind && e == -KOV_ECONNRESET ? -KOV_ECONNREFUSED : e;
}

static long sys_accept(uint64_t fd, uint64_t uaddr, uint64_t ulen)
{
	struct process *p = current_process();
	int s = lwip_fd(p, fd);
	if (s < 0)
		return -KOV_EBADF;
	if (uaddr && !user_range_ok(ulen, sizeof(uint32_t)))
		return -KOV_EFAULT;
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int c = lwip_accept(s, (struct sockaddr *)&sa, &len);
	if (c < 0)
		return error();
	long nfd = install(p, c);
	if (nfd < 0)
		return nfd;
	long rc = addr_to_user(&sa, uaddr, ulen);
	return rc ? rc : nfd;
}

static long sys_send(uint64_t fd, uint64_t ubuf, uint64_t len, uint64_t flags)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	if (flags & ~(uint64_t)(MSG_DONTWAIT | MSG_MORE))
		return -KOV_EINVAL;
	if (!user_range_ok(ubuf, len))
		return -KOV_EFAULT;
	if (!len)
		return 0;
	uint64_t chunk = len < IO_CHUNK ? len : IO_CHUNK;
	uint8_t *k = bounce();
	if (!k)
		return -KOV_ENOMEM;
	uint64_t done = 0;
	long rc = 0;
	while (done < len) {
		uint64_t n = len - done < chunk ? len - done : chunk;
		if ((rc = copy_from_user(k, ubuf + done, n)))
			break;
		int more = done + n < len ? MSG_MORE : 0;
		ssize_t sent = lwip_send(s, k, n, (int)flags | more);
		if (sent < 0) {
			rc = error();
			break;
		}
		done += (uint64_t)sent;
		if ((uint64_t)sent < n)
			break;
	}
	return done ? (long)done : rc;
}

static long sys_recv(uint64_t fd, uint64_t ubuf, uint64_t len, uint64_t flags)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	if (flags & ~(uint64_t)(MSG_DONTWAIT | MSG_PEEK))
		return -KOV_EINVAL;
	if (!user_range_ok(ubuf, len))
		return -KOV_EFAULT;
	if (!len)
		return 0;
	uint64_t n = len < IO_CHUNK ? len : IO_CHUNK;
	uint8_t *k = bounce();
	if (!k)
		return -KOV_ENOMEM;
	ssize_t got = lwip_recv(s, k, n, (int)flags);
	long rc = got < 0 ? error() : copy_to_user(ubuf, k, (uint64_t)got);
	return rc ? rc : (long)got;
}

static long close_slot(struct process *p, int slot)
{
	spin_lock(&p->lock);
	int s = p->sockets[slot];
	p->sockets[slot] = 0;
	spin_unlock(&p->lock);
	if (!s)
		return -KOV_EBADF;
	__atomic_sub_fetch(&sockets_open, 1, __ATOMIC_RELAXED);
	return lwip_close(s - 1) < 0 ? error() : 0;
}

static long sys_close(uint64_t fd)
{
	if (fd < 3 || fd >= 3 + PROC_MAX_SOCKETS)
		return -KOV_EBADF;
	return close_slot(current_process(), (int)fd - 3);
}

void net_process_exit(struct process *p)
{
	for (int i = 0; i < PROC_MAX_SOCKETS; i++)
		if (p->sockets[i])
			close_slot(p, i);
}

/* poll() over n descriptors, with fds (in user_fd's order) and user_fd the caller's buffers. */
static long poll_fds(struct process *p, struct pollfd *fds, int *user_fd, uint64_t ufds, uint64_t n,
		     uint64_t timeout)
{
	long rc = copy_from_user(fds, ufds, n * sizeof fds[0]);
	if (rc)
		return rc;
	long ready = 0;
	for (uint64_t i = 0; i < n; i++) {
		user_fd[i] = fds[i].fd;
		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;                    /* ignored, as POSIX says */
		int s = lwip_fd(p, (uint64_t)fds[i].fd);
		if (s < 0) {
			fds[i].revents = POLLNVAL;
			ready++;
		}
		fds[i].fd = s;
	}
	int64_t left = (int32_t)timeout;
	if (!ready) {
		/* Waits in slices so that an exiting process is not held by a long poll. */
		for (;;) {
			int slice = left < 0 || left > POLL_SLICE_MS ? POLL_SLICE_MS : (int)left;
			int r = lwip_poll(fds, (nfds_t)n, slice);
			if (r < 0)
				return error();
			if (r > 0 || (left >= 0 && (left -= slice) <= 0) || p->exiting)
				break;
		}
	}
	ready = 0;
	for (uint64_t i = 0; i < n; i++) {
		fds[i].fd = user_fd[i];
		if (fds[i].revents)
			ready++;
	}
	rc = copy_to_user(ufds, fds, n * sizeof fds[0]);
	return rc ? rc : ready;
}

static long sys_poll(uint64_t ufds, uint64_t n, uint64_t timeout)
{
	if (n > POLL_MAX)
		return -KOV_EINVAL;
	/* A few descriptors on the (16 KiB) kernel stack; a server's hundred from the heap. */
	if (n <= POLL_ON_STACK) {
		struct pollfd fds[POLL_ON_STACK];
		int user_fd[POLL_ON_STACK];
		return poll_fds(current_process(), fds, user_fd, ufds, n, timeout);
	}
	struct pollfd *fds = kmalloc(n * (sizeof *fds + sizeof(int)));
	if (!fds)
		return -KOV_ENOMEM;
	long rc = poll_fds(current_process(), fds, (int *)(fds + n), ufds, n, timeout);
	kfree(fds);
	return rc;
}

static long sys_setsockopt(uint64_t fd, uint64_t level, uint64_t name, uint64_t uval,
			   uint64_t len)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	bool is_int = (level == SOL_SOCKET && (name == SO_REUSEADDR || name == SO_KEEPALIVE ||
					       name == SO_RCVBUF)) ||
		      (level == IPPROTO_TCP && (name == TCP_NODELAY || name == TCP_KEEPIDLE ||
						name == TCP_KEEPINTVL || name == TCP_KEEPCNT));
	bool is_time = level == SOL_SOCKET && (name == SO_RCVTIMEO || name == SO_SNDTIMEO);
	if (!is_int && !is_time)
		return -KOV_EINVAL;
	union { int i; struct timeval tv; } v;
	uint64_t want = is_int ? sizeof v.i : sizeof v.tv;
	if (len != want)
		return -KOV_EINVAL;
	long rc = copy_from_user(&v, uval, want);
	if (rc)
		return rc;
	if (is_time && (v.tv.tv_sec < 0 || v.tv.tv_usec < 0 || v.tv.tv_usec >= 1000000))
		return -KOV_EINVAL;
	return lwip_setsockopt(s, (int)level, (int)name, &v, (socklen_t)want) < 0 ? error() : 0;
}

static long sys_shutdown(uint64_t fd, uint64_t how)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	if (how > SHUT_RDWR)
		return -KOV_EINVAL;
	return lwip_shutdown(s, (int)how) < 0 ? error() : 0;
}

static long sys_getsockname(uint64_t fd, uint64_t uaddr, uint64_t ulen, uint64_t peer)
{
	int s = lwip_fd(current_process(), fd);
	if (s < 0)
		return -KOV_EBADF;
	if (!uaddr || peer > 1)
		return -KOV_EINVAL;
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int r = peer ? lwip_getpeername(s, (struct sockaddr *)&sa, &len)
		     : lwip_getsockname(s, (struct sockaddr *)&sa, &len);
	return r < 0 ? error() : addr_to_user(&sa, uaddr, ulen);
}

static bool always_blocked(const void *key)
{
	(void)key;
	return true;
}

/* poll() on a machine without a NIC: over descriptors that are all ignored (negative) it is a
 * sleep, as POSIX has it; anything else names a socket, which cannot exist here. */
static long poll_without_network(uint64_t ufds, uint64_t n, uint64_t timeout)
{
	struct pollfd fd;
	for (uint64_t i = 0; i < n; i++) {
		long rc = copy_from_user(&fd, ufds + i * sizeof fd, sizeof fd);
		if (rc)
			return rc;
		if (fd.fd >= 0)
			return -KOV_ENODEV;
	}
	int32_t ms = (int32_t)timeout;
	if (ms < 0)
		return -KOV_EINVAL;   /* forever, on nothing: it would never return */
	uint64_t deadline = clock_ns() + (uint64_t)ms * 1000000;
	struct process *p = current_process();
	while (clock_ns() < deadline && !(p && p->exiting))
		thread_block_until(&always_blocked, always_blocked, deadline);
	return 0;
}

long net_syscall(uint64_t nr, const uint64_t *a)
{
	if (!netdev_get())
		return nr == SYS_POLL && a[1] <= POLL_MAX ? poll_without_network(a[0], a[1], a[2])
							  : -KOV_ENODEV;
	switch (nr) {
	case SYS_SOCKET: return sys_socket(a[0], a[1], a[2]);
	case SYS_BIND: return sys_bind_connect(true, a[0], a[1], a[2]);
	case SYS_LISTEN: {
		int s = lwip_fd(current_process(), a[0]);
		if (s < 0)
			return -KOV_EBADF;
		if (a[1] > 255)
			return -KOV_EINVAL;
		/* The accept mailbox holds no more: a longer backlog would reset connections. */
		int backlog = a[1] < DEFAULT_ACCEPTMBOX_SIZE ? (int)a[1] : DEFAULT_ACCEPTMBOX_SIZE;
		return lwip_listen(s, backlog) < 0 ? error() : 0;
	}
	case SYS_ACCEPT: return sys_accept(a[0], a[1], a[2]);
	case SYS_CONNECT: return sys_bind_connect(false, a[0], a[1], a[2]);
	case SYS_SEND: return sys_send(a[0], a[1], a[2], a[3]);
	case SYS_RECV: return sys_recv(a[0], a[1], a[2], a[3]);
	case SYS_CLOSE: return sys_close(a[0]);
	case SYS_POLL: return sys_poll(a[0], a[1], a[2]);
	case SYS_SETSOCKOPT: return sys_setsockopt(a[0], a[1], a[2], a[3], a[4]);
	case SYS_SHUTDOWN: return sys_shutdown(a[0], a[1]);
	case SYS_GETSOCKNAME: return sys_getsockname(a[0], a[1], a[2], a[3]);
	default: return -KOV_ENOSYS;
	}
}
