/* error.c: agx.ipc.ErrorCode, its names and the errno each stands for. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "conn.h"

static const struct {
	int code;
	int err;
	const char *name;
} codes[] = {
	{ AGX__IPC__ERROR_CODE__ERROR_INVALID_ARGUMENT, EINVAL, "invalid argument" },
	{ AGX__IPC__ERROR_CODE__ERROR_MALFORMED, EBADMSG, "malformed message" },
	{ AGX__IPC__ERROR_CODE__ERROR_TOO_LARGE, EMSGSIZE, "message too large" },
	{ AGX__IPC__ERROR_CODE__ERROR_VERSION_MISMATCH, EPROTONOSUPPORT,
	  "protocol version mismatch" },
	{ AGX__IPC__ERROR_CODE__ERROR_PROTOCOL, EPROTO, "protocol error" },
	{ AGX__IPC__ERROR_CODE__ERROR_UNKNOWN_MESSAGE, ENOSYS, "unknown message type" },
	{ AGX__IPC__ERROR_CODE__ERROR_NO_MEMORY, ENOMEM, "out of memory" },
	{ AGX__IPC__ERROR_CODE__ERROR_PERMISSION_DENIED, EPERM, "permission denied" },
	{ AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND, ENOENT, "not found" },
	{ AGX__IPC__ERROR_CODE__ERROR_BUSY, EBUSY, "busy" },
	{ AGX__IPC__ERROR_CODE__ERROR_TIMEOUT, ETIMEDOUT, "timed out" },
	{ AGX__IPC__ERROR_CODE__ERROR_DEVICE_LOST, ENODEV, "device lost" },
	{ AGX__IPC__ERROR_CODE__ERROR_QUOTA_EXCEEDED, EDQUOT, "quota exceeded" },
	{ AGX__IPC__ERROR_CODE__ERROR_NO_SPACE, ENOSPC, "no space" },
	{ AGX__IPC__ERROR_CODE__ERROR_INTERNAL, EIO, "internal error" },
	{ AGX__IPC__ERROR_CODE__ERROR_UNSUPPORTED, EOPNOTSUPP, "unsupported" },
	{ AGX__IPC__ERROR_CODE__ERROR_WRONG_INTERFACE, EPROTOTYPE, "wrong interface" },
	{ AGX__IPC__ERROR_CODE__ERROR_CONTEXT_LOST, ECANCELED, "context lost" },
};

#define NUM_CODES (sizeof(codes) / sizeof(codes[0]))

int agx_ipc_error_to_errno(int code)
{
	for (unsigned i = 0; i < NUM_CODES; i++)
		if (codes[i].code == code)
			return codes[i].err;
	return EIO;
}

int agx_ipc_errno_to_error(int err)
{
	if (err < 0)
		err = -err;
	/* Errnos that local system calls give, mapped onto the nearest code. */
	switch (err) {
	case EACCES:
		return AGX__IPC__ERROR_CODE__ERROR_PERMISSION_DENIED;
	case EBADF:
		return AGX__IPC__ERROR_CODE__ERROR_NOT_FOUND;
	case ENOTSUP:
		return AGX__IPC__ERROR_CODE__ERROR_UNSUPPORTED;
	default:
		break;
	}
	for (unsigned i = 0; i < NUM_CODES; i++)
		if (codes[i].err == err)
			return codes[i].code;
	return AGX__IPC__ERROR_CODE__ERROR_INTERNAL;
}

const char *agx_ipc_error_name(int code)
{
	for (unsigned i = 0; i < NUM_CODES; i++)
		if (codes[i].code == code)
			return codes[i].name;
	return "unknown error";
}

void ipc_error_format(Agx__Ipc__Error *error, char *buf, size_t size, int code, const char *fmt,
		      va_list ap)
{
	agx__ipc__error__init(error);
	vsnprintf(buf, size, fmt, ap);
	error->code = code;
	error->message = buf;
}

int agx_ipc_error_set(struct agx_ipc_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -agx_ipc_error_to_errno(code);
}
