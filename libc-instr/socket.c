/* Socket and KM-information system call stubs (libc-instr/include/socket.h). */
#include <kov.h>
#include <socket.h>
#include "uthread.h"
#include "../kernel/abi/syscall_nr.h"

int socket(int domain, int type, int protocol)
{
	return (int)__syscall(SYS_SOCKET, domain, type, protocol, 0, 0);
}
int bind(int fd, const struct sockaddr_in *addr, socklen_t len)
{
	return (int)__syscall(SYS_BIND, fd, (long)addr, len, 0, 0);
}
int listen(int fd, int backlog) { return (int)__syscall(SYS_LISTEN, fd, backlog, 0, 0, 0); }
int accept(int fd, struct sockaddr_in *addr, socklen_t *len)
{
	return (int)uthread_blocking_syscall(SYS_ACCEPT, fd, (long)addr, (long)len, 0);
}
int connect(int fd, const struct sockaddr_in *addr, socklen_t len)
{
	return (int)uthread_blocking_syscall(SYS_CONNECT, fd, (long)addr, len, 0);
}
long send(int fd, const void *buf, size_t len, int flags)
{
	return uthread_blocking_syscall(SYS_SEND, fd, (long)buf, (long)len, flags);
}
long recv(int fd, void *buf, size_t len, int flags)
{
	return uthread_blocking_syscall(SYS_RECV, fd, (long)buf, (long)len, flags);
}
int close(int fd) { return (int)__syscall(SYS_CLOSE, fd, 0, 0, 0, 0); }
int poll(struct pollfd *fds, unsigned int n, int timeout_ms)
{
	return (int)uthread_blocking_syscall(SYS_POLL, (long)fds, n, timeout_ms, 0);
}
int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	return (int)__syscall(SYS_SETSOCKOPT, fd, level, name, (long)val, len);
}
int shutdown(int fd, int how) { return (int)__syscall(SYS_SHUTDOWN, fd, how, 0, 0, 0); }
int getsockname(int fd, struct sockaddr_in *addr, socklen_t *len)
{
	return (int)__syscall(SYS_GETSOCKNAME, fd, (long)addr, (long)len, 0, 0);
}
int getpeername(int fd, struct sockaddr_in *addr, socklen_t *len)
{
	return (int)__syscall(SYS_GETSOCKNAME, fd, (long)addr, (long)len, 1, 0);
}
int netinfo(struct km_netinfo *out) { return (int)__syscall(SYS_NETINFO, (long)out, 0, 0, 0, 0); }

int km_info(struct km_info *out) { return (int)__syscall(SYS_KM_INFO, (long)out, 0, 0, 0, 0); }
int platform_info(struct km_platform *out)
{
	return (int)__syscall(SYS_PLATFORM, (long)out, 0, 0, 0, 0);
}
long km_catalogue(struct km_event_info *buf, unsigned int max)
{
	return __syscall(SYS_KM_CATALOGUE, (long)buf, max, 0, 0, 0);
}
long km_ksyms(void *buf, size_t cap) { return __syscall(SYS_KM_KSYMS, (long)buf, (long)cap, 0, 0, 0); }
long km_processes(struct km_process *buf, unsigned int max)
{
	return __syscall(SYS_KM_PROCESSES, (long)buf, max, 0, 0, 0);
}
long file_read(const char *name, uint64_t offset, void *buf, size_t len)
{
	return __syscall(SYS_FILE_READ, (long)name, (long)offset, (long)buf, (long)len, 0);
}
