/* Error codes as text, and which of them end a connection. */
#include "proto.h"

static const char *const texts[PROTO_E_MAX + 1] = {
	[0] = "no error",
	[PROTO_E_TRUNCATED] = "frame ends inside a field",
	[PROTO_E_TOO_BIG] = "frame larger than the limit",
	[PROTO_E_LENGTH] = "length prefix smaller than the frame header",
	[PROTO_E_UNKNOWN_TYPE] = "unknown message type",
	[PROTO_E_TRAILING] = "bytes after the last field",
	[PROTO_E_COUNT] = "count above its limit or beyond the frame",
	[PROTO_E_STRING] = "string past the frame, with a NUL, or of a length out of bounds",
	[PROTO_E_INCONSISTENT] = "fields contradict each other or hold an unknown value",
	[PROTO_E_BAD_MAGIC] = "wrong magic: not the KOV protocol",
	[PROTO_E_VERSION] = "incompatible protocol major version",
	[PROTO_E_DENIED] = "wrong controller token",
	[PROTO_E_NOT_CONTROLLER] = "only the controller may send this",
	[PROTO_E_UNEXPECTED] = "message not allowed here or now",
	[PROTO_E_BUSY] = "another client is the controller",
	[PROTO_E_CONFIG] = "configuration cannot be applied on this target",
	[PROTO_E_NOT_FOUND] = "no such process",
	[PROTO_E_UNAVAILABLE] = "not available on this target",
	[PROTO_E_OVERLOAD] = "server at its limit of clients",
	[PROTO_E_INTERNAL] = "internal error in the server",
	[PROTO_E_NOSPACE] = "buffer too small",
	[PROTO_E_INVALID] = "invalid call",
};

const char *proto_strerror(int code)
{
	if (code < 0)
		code = -code;
	return code <= PROTO_E_MAX ? texts[code] : "unknown error";
}

/* A peer that sends what cannot be trusted, or is refused, is not served further; a request
 * that merely cannot be carried out is answered and the connection goes on. */
bool proto_error_fatal(int code)
{
	if (code < 0)
		code = -code;
	switch (code) {
	case PROTO_E_NOT_CONTROLLER:
	case PROTO_E_BUSY:
	case PROTO_E_CONFIG:
	case PROTO_E_NOT_FOUND:
	case PROTO_E_UNAVAILABLE:
	case PROTO_E_INTERNAL:
		return false;
	default:
		return code != 0;
	}
}
