/* BSD-style sockets for user programs (TCP and UDP over IPv4), served by the kernel's lwIP.
 * The calls and structures are the POSIX ones; constants have lwIP's values. Errors are
 * returned as negative KOV_E* numbers (kernel/abi/syscall_nr.h), not through errno. */
#ifndef KOV_SOCKET_H
#define KOV_SOCKET_H

#include <stdint.h>
#include <stddef.h>
#include "../../kernel/abi/km_abi.h"

#define AF_INET 2
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define INADDR_ANY 0u

#define SOL_SOCKET 0xfff
#define SO_REUSEADDR 0x0004
#define SO_KEEPALIVE 0x0008
#define SO_SNDBUF 0x1001
#define SO_RCVBUF 0x1002
#define SO_SNDTIMEO 0x1005   /* value: struct timeval */
#define SO_RCVTIMEO 0x1006
#define TCP_NODELAY 0x01     /* level IPPROTO_TCP */

#define MSG_PEEK 0x01
#define MSG_DONTWAIT 0x08
#define MSG_MORE 0x10

#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2

#define POLLIN 0x1
#define POLLOUT 0x2
#define POLLERR 0x4
#define POLLNVAL 0x8
#define POLLHUP 0x200

typedef uint32_t socklen_t;

struct in_addr { uint32_t s_addr; };          /* network byte order */
struct sockaddr_in {
	uint8_t sin_len;                          /* sizeof(struct sockaddr_in) */
	uint8_t sin_family;                       /* AF_INET */
	uint16_t sin_port;                        /* network byte order */
	struct in_addr sin_addr;
	char sin_zero[8];
};
struct timeval { long tv_sec; long tv_usec; };
struct pollfd { int fd; short events; short revents; };

/* The target is big-endian: network order is host order. */
#define htons(x) ((uint16_t)(x))
#define ntohs(x) ((uint16_t)(x))
#define htonl(x) ((uint32_t)(x))
#define ntohl(x) ((uint32_t)(x))

int socket(int domain, int type, int protocol);
int bind(int fd, const struct sockaddr_in *addr, socklen_t len);
int listen(int fd, int backlog);
int accept(int fd, struct sockaddr_in *addr, socklen_t *len);
int connect(int fd, const struct sockaddr_in *addr, socklen_t len);
long send(int fd, const void *buf, size_t len, int flags);
long recv(int fd, void *buf, size_t len, int flags);
int close(int fd);
int poll(struct pollfd *fds, unsigned int n, int timeout_ms);
int setsockopt(int fd, int level, int name, const void *val, socklen_t len);
int shutdown(int fd, int how);
int getsockname(int fd, struct sockaddr_in *addr, socklen_t *len);
int getpeername(int fd, struct sockaddr_in *addr, socklen_t *len);
/* The network interface and stack counters; -KOV_ENODEV when the target has no network. */
int netinfo(struct km_netinfo *out);

/* The KM's information calls (privileged processes only): kernel/abi/km_abi.h. */
int km_info(struct km_info *out);
/* The clock read at boot and the platform's self-report (SYS_PLATFORM). */
struct km_platform;
int platform_info(struct km_platform *out);
long km_catalogue(struct km_event_info *buf, unsigned int max);
long km_ksyms(void *buf, size_t cap);
long km_processes(struct km_process *buf, unsigned int max);
/* Reads a file of the initial RAM disk (a program, e.g. for its symbol table, or one of the
 * files under www/ that httpd serves); any process may. -KOV_ENOENT if there is none. */
long file_read(const char *name, uint64_t offset, void *buf, size_t len);

#endif
