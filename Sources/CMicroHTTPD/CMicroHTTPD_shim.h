// Swift-callable wrappers over libmicrohttpd (swift-nio style: `CMHD_` prefix).
//
// Swift cannot call C variadic functions (`MHD_start_daemon`, `MHD_get_daemon_info`,
// `MHD_get_connection_info`) and does not see the closed C enums' cases by name in every
// context, so this header gives fixed-argument forwarders and named constants. Forwarders
// only: what to do with what they return is decided in Swift (RoutemapHTTP).
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

static const enum MHD_Result CMHD_YES = MHD_YES;
static const enum MHD_Result CMHD_NO = MHD_NO;
static const enum MHD_ResponseMemoryMode CMHD_RESPMEM_PERSISTENT = MHD_RESPMEM_PERSISTENT;
static const enum MHD_ResponseMemoryMode CMHD_RESPMEM_MUST_COPY = MHD_RESPMEM_MUST_COPY;
static const enum MHD_ValueKind CMHD_HEADER_KIND = MHD_HEADER_KIND;
static const enum MHD_ValueKind CMHD_GET_ARGUMENT_KIND = MHD_GET_ARGUMENT_KIND;
static const int CMHD_INVALID_SOCKET = MHD_INVALID_SOCKET;

static const unsigned int CMHD_USE_ERROR_LOG = MHD_USE_ERROR_LOG;
static const unsigned int CMHD_USE_INTERNAL_POLLING_THREAD = MHD_USE_INTERNAL_POLLING_THREAD;
static const unsigned int CMHD_USE_EPOLL = MHD_USE_EPOLL;
static const unsigned int CMHD_USE_TURBO = MHD_USE_TURBO;
static const unsigned int CMHD_USE_ITC = MHD_USE_ITC;
static const unsigned int CMHD_ALLOW_SUSPEND_RESUME = MHD_ALLOW_SUSPEND_RESUME;
static const unsigned int CMHD_USE_IPv6 = MHD_USE_IPv6;
static const unsigned int CMHD_USE_DUAL_STACK = MHD_USE_DUAL_STACK;
static const unsigned int CMHD_USE_TLS = MHD_USE_TLS;

static const enum MHD_OPTION CMHD_OPTION_THREAD_POOL_SIZE = MHD_OPTION_THREAD_POOL_SIZE;
static const enum MHD_OPTION CMHD_OPTION_CONNECTION_TIMEOUT = MHD_OPTION_CONNECTION_TIMEOUT;
static const enum MHD_OPTION CMHD_OPTION_CONNECTION_LIMIT = MHD_OPTION_CONNECTION_LIMIT;
static const enum MHD_OPTION CMHD_OPTION_PER_IP_CONNECTION_LIMIT = MHD_OPTION_PER_IP_CONNECTION_LIMIT;
static const enum MHD_OPTION CMHD_OPTION_CONNECTION_MEMORY_LIMIT = MHD_OPTION_CONNECTION_MEMORY_LIMIT;
static const enum MHD_OPTION CMHD_OPTION_NOTIFY_COMPLETED = MHD_OPTION_NOTIFY_COMPLETED;
static const enum MHD_OPTION CMHD_OPTION_NOTIFY_CONNECTION = MHD_OPTION_NOTIFY_CONNECTION;
static const enum MHD_OPTION CMHD_OPTION_URI_LOG_CALLBACK = MHD_OPTION_URI_LOG_CALLBACK;
static const enum MHD_OPTION CMHD_OPTION_UNESCAPE_CALLBACK = MHD_OPTION_UNESCAPE_CALLBACK;
static const enum MHD_OPTION CMHD_OPTION_EXTERNAL_LOGGER = MHD_OPTION_EXTERNAL_LOGGER;
static const enum MHD_OPTION CMHD_OPTION_SOCK_ADDR = MHD_OPTION_SOCK_ADDR;
static const enum MHD_OPTION CMHD_OPTION_HTTPS_MEM_KEY = MHD_OPTION_HTTPS_MEM_KEY;
static const enum MHD_OPTION CMHD_OPTION_HTTPS_MEM_CERT = MHD_OPTION_HTTPS_MEM_CERT;
static const enum MHD_OPTION CMHD_OPTION_END = MHD_OPTION_END;

/// Whether this libmicrohttpd was built with TLS (GnuTLS): `MHD_is_feature_supported`.
static inline int CMHD_tls_supported(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

static const enum MHD_ConnectionNotificationCode CMHD_CONNECTION_NOTIFY_STARTED = MHD_CONNECTION_NOTIFY_STARTED;
static const enum MHD_ConnectionNotificationCode CMHD_CONNECTION_NOTIFY_CLOSED = MHD_CONNECTION_NOTIFY_CLOSED;

/// `MHD_OPTION_URI_LOG_CALLBACK`'s callback type, which `microhttpd.h` does not name.
typedef void *(*CMHD_UriLogCallback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// `MHD_OPTION_UNESCAPE_CALLBACK`'s callback type, which `microhttpd.h` does not name: decodes
/// the NUL-terminated `text` in place and returns its new length.
typedef size_t (*CMHD_UnescapeCallback)(void *cls, struct MHD_Connection *connection, char *text);

/// `MHD_start_daemon` with its options in an array (`MHD_OPTION_ARRAY`), which the caller
/// builds and ends with `MHD_OPTION_END`. Returns NULL on failure; `errno` may tell why.
static inline struct MHD_Daemon *CMHD_start_daemon(
    unsigned int flags,
    uint16_t port,
    MHD_AccessHandlerCallback access_handler,
    void *access_handler_cls,
    const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(
        flags, port, NULL, NULL, access_handler, access_handler_cls,
        MHD_OPTION_ARRAY, options,
        MHD_OPTION_END);
}

/// The port the daemon listens on (the real one when started on port 0), or 0 if unknown.
static inline uint16_t CMHD_get_bound_port(struct MHD_Daemon *daemon) {
    if (daemon == NULL) return 0;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon holds open right now, or 0 if unknown.
static inline unsigned int CMHD_current_connections(struct MHD_Daemon *daemon) {
    if (daemon == NULL) return 0;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// The connection's socket, or -1 if unknown.
static inline int CMHD_connection_fd(struct MHD_Connection *connection) {
    if (connection == NULL) return -1;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// What the `MHD_OPTION_NOTIFY_CONNECTION` callback stored in `*socket_context` for this
/// connection, or NULL.
static inline void *CMHD_socket_context(struct MHD_Connection *connection) {
    if (connection == NULL) return NULL;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The peer's socket address (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`), or NULL if unknown.
static inline const struct sockaddr *CMHD_client_address(struct MHD_Connection *connection) {
    if (connection == NULL) return NULL;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
