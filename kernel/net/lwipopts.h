/* lwIP configuration for the KOV kernel: sockets over kernel threads, IPv4 with DHCP, TCP
 * tuned for streaming monitor data to a host (large windows, checksums on copy). */
#ifndef KOV_LWIPOPTS_H
#define KOV_LWIPOPTS_H

#define NO_SYS 0
#define SYS_LIGHTWEIGHT_PROT 1
#define LWIP_TCPIP_CORE_LOCKING 1        /* socket calls run the stack directly under a lock */
#define LWIP_TCPIP_CORE_LOCKING_INPUT 0
#define LWIP_NETCONN 1
#define LWIP_SOCKET 1
#define LWIP_COMPAT_SOCKETS 0            /* the kernel calls lwip_*; user space has its own names */
#define LWIP_POSIX_SOCKETS_IO_NAMES 0
#define LWIP_SOCKET_SELECT 1
#define LWIP_SOCKET_POLL 1
#define LWIP_SO_RCVTIMEO 1
#define LWIP_SO_SNDTIMEO 1
#define LWIP_SO_RCVBUF 1
#define LWIP_SO_LINGER 0
#define SO_REUSE 1
/* listen()'s backlog counts connections not yet accepted (SYN received or established); past
 * it a SYN is dropped, and the peer retries, rather than the connection being reset once it
 * does not fit the accept mailbox. */
#define TCP_LISTEN_BACKLOG 1
#define LWIP_TCP_KEEPALIVE 1
#define LWIP_PROVIDE_ERRNO 1
#define LWIP_NETIF_API 0

#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define LWIP_ARP 1
#define LWIP_ETHERNET 1
#define LWIP_ICMP 1
#define LWIP_UDP 1
#define LWIP_TCP 1
#define LWIP_RAW 0
#define LWIP_DHCP 1
#define LWIP_DHCP_DOES_ACD_CHECK 0
#define DHCP_DOES_ARP_CHECK 0            /* QEMU's DHCP server is the only one on its network */
#define LWIP_AUTOIP 0
#define LWIP_IGMP 0
#define LWIP_DNS 0
#define LWIP_NETIF_STATUS_CALLBACK 1
#define LWIP_NETIF_LINK_CALLBACK 1
#define LWIP_NETIF_HOSTNAME 1
/* 127.0.0.1 and the own address loop back: a program can wake its own poll() with a datagram
 * (httpd's poller does). */
#define LWIP_NETIF_LOOPBACK 1
#define LWIP_STATS 0
#define LWIP_CHECKSUM_ON_COPY 1
#define LWIP_CHKSUM kov_inet_chksum        /* kernel/net/chksum.c: a word at a time */
unsigned short kov_inet_chksum(const void *data, int len);
#define LWIP_NETIF_TX_SINGLE_PBUF 1      /* a frame is one buffer: the driver copies it once */
#define ETH_PAD_SIZE 2                   /* IP header 4-byte aligned in received frames */

/* Memory: lwIP's own heap and pools, statically allocated in the kernel image. */
#define MEM_ALIGNMENT 8
#define MEM_SIZE (4 * 1024 * 1024)
#define MEMP_NUM_PBUF 256
/* Enough for a server holding ApacheBench's 64 concurrent connections (PROC_MAX_SOCKETS per
 * process) next to the DCI daemon's, and closed connections waiting in TIME_WAIT (lwIP reuses
 * the oldest of those when the pool runs out). */
#define MEMP_NUM_NETCONN 192
#define MEMP_NUM_TCP_PCB 192
#define MEMP_NUM_TCP_PCB_LISTEN 8
#define MEMP_NUM_UDP_PCB 8
#define MEMP_NUM_NETBUF 32
#define MEMP_NUM_TCPIP_MSG_INPKT 256
#define PBUF_POOL_SIZE 512
#define PBUF_POOL_BUFSIZE 1600

/* TCP: a window of 256 KiB (scaled) and send buffers that keep a 1 Gbit/s virtual link busy. */
#define TCP_MSS 1460
#define LWIP_WND_SCALE 1
#define TCP_RCV_SCALE 3
#define TCP_WND (256 * 1024)
#define TCP_SND_BUF (512 * 1024)
#define TCP_SND_QUEUELEN (4 * TCP_SND_BUF / TCP_MSS)
#define MEMP_NUM_TCP_SEG (TCP_SND_QUEUELEN + 64)
#define TCP_OVERSIZE TCP_MSS
#define TCP_SNDLOWAT (32 * 1024)       /* lwIP keeps it below 64 KiB even with scaling */
#define LWIP_TCP_SACK_OUT 0
#define TCP_QUEUE_OOSEQ 1
#define LWIP_TCP_TIMESTAMPS 0
/* TIME_WAIT lasts 2 x MSL. lwIP's 60 s MSL kept a closed connection's port for two minutes, and
 * lwIP answers a new SYN on such a port with an ACK instead of taking it (as BSD and Linux do
 * when its sequence number is higher): a host that reused the port (QEMU's user network
 * forwards the host client's port) got no connection for many seconds. Segments on a LAN or
 * QEMU's virtual one live far shorter than 2 s. */
#define TCP_MSL 2000UL

/* Threads and mailboxes. */
#define TCPIP_THREAD_NAME "tcpip"
#define TCPIP_THREAD_STACKSIZE 16384
#define TCPIP_THREAD_PRIO 1
#define TCPIP_MBOX_SIZE 512
#define DEFAULT_THREAD_STACKSIZE 16384
#define DEFAULT_TCP_RECVMBOX_SIZE 256
#define DEFAULT_UDP_RECVMBOX_SIZE 32
#define DEFAULT_ACCEPTMBOX_SIZE 128       /* a burst of connections waits, not reset */

/* Debian's lwIP has sockets.c take sockaddr lengths from the port; ours carry sin_len. */
#define IP4ADDR_SOCKADDR_SET_LEN(sin) ((sin)->sin_len = (u8_t)sizeof(struct sockaddr_in))
#define IPADDR_SOCKADDR_GET_LEN(addr) ((socklen_t)(addr)->sa.sa_len)

#define LWIP_RAND() kov_net_random()
unsigned int kov_net_random(void);

#endif
