/* Internal to gui/client/: opening the TCP connection. */
#ifndef KOV_CLIENT_NET_H
#define KOV_CLIENT_NET_H

#include <stddef.h>

/* Resolves host and connects to the first of its addresses that accepts, all within
 * timeout_ms, with TCP_NODELAY set and the socket left non-blocking. Returns the socket, or
 * a negative value with a readable reason in err: -1 a failure ("Connection refused",
 * "cannot resolve host: ..."), -2 the time ran out. */
int kov_net_connect(const char *host, const char *port, int timeout_ms, char *err, size_t n);

#endif
