// Swift-callable wrappers over libmicrohttpd (swift-nio style: `CMHD_` prefix).
//
// Swift cannot call C variadic functions (`MHD_start_daemon`, `MHD_get_daemon_info`,
// `MHD_get_connection_info`) and does not see the closed C enums' cases by name in every
// context, so this header gives fixed-argument wrappers and named constants.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

/// Whether this libmicrohttpd was built with TLS (GnuTLS): `MHD_is_feature_supported`.
static inline int CMHD_tls_supported(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}
static const enum MHD_ConnectionNotificationCode CMHD_CONNECTION_NOTIFY_STARTED = MHD_CONNECTION_NOTIFY_STARTED;
static const enum MHD_ConnectionNotificationCode CMHD_CONNECTION_NOTIFY_CLOSED = MHD_CONNECTION_NOTIFY_CLOSED;

/// `MHD_OPTION_URI_LOG_CALLBACK`'s callback: the raw request target (query included, nothing
/// decoded) as soon as the request line is read, before MHD parses the query. What it returns
/// becomes the request's first `*req_cls`.
typedef void *(*CMHD_UriLogCallback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Receives libmicrohttpd's log lines, already formatted (no trailing newline).
typedef void (*CMHD_LogSink)(void *cls, const char *message);

/// Where `CMHD_start_daemon` sends MHD's log lines. Must outlive the daemon.
struct CMHD_LogTarget {
    CMHD_LogSink sink;
    void *cls;
};

/// Formats one MHD log line and hands it to the `CMHD_LogTarget` in `cls`.
static inline void CMHD_log_trampoline(void *cls, const char *format, va_list arguments) {
    struct CMHD_LogTarget *target = (struct CMHD_LogTarget *)cls;
    if (target == NULL || target->sink == NULL || format == NULL) return;
    char line[512];
    int length = vsnprintf(line, sizeof line, format, arguments);
    if (length < 0) return;
    size_t end = strnlen(line, sizeof line);
    while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r')) line[--end] = '\0';
    target->sink(target->cls, line);
}

static inline int CMHD_hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Percent-decodes `text` in place like MHD's own unescaper, except that `%00` stays as it
/// is: MHD hands the path and arguments over as C strings, so a decoded NUL would silently
/// cut them short (`/bills/a%00b` would reach the handler as `/bills/a`).
static inline size_t CMHD_unescape_keeping_nul(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    char *from = text;
    char *to = text;
    while (*from != '\0') {
        if (from[0] == '%') {
            int high = CMHD_hex_value(from[1]);
            int low = high < 0 ? -1 : CMHD_hex_value(from[2]);
            if (low >= 0 && (high != 0 || low != 0)) {
                *to++ = (char)(high * 16 + low);
                from += 3;
                continue;
            }
        }
        *to++ = *from++;
    }
    *to = '\0';
    return (size_t)(to - text);
}

/// `MHD_start_daemon` with fixed arguments. `bind_address` (nullable) must hold the port too;
/// when NULL MHD binds every IPv4 address on `port`. `log_target` (nullable) receives MHD's
/// error log (pass `MHD_USE_ERROR_LOG` in `flags`). Paths and arguments are percent-decoded
/// by `CMHD_unescape_keeping_nul`. `notify_connection` (nullable) hears of every connection's
/// start and close (`MHD_OPTION_NOTIFY_CONNECTION`; MHD calls CLOSED before it closes the
/// socket); `uri_log` (nullable) sees each request target first (`MHD_OPTION_URI_LOG_CALLBACK`).
/// `tls_key_pem` and `tls_cert_pem` (both nullable; pass `MHD_USE_TLS` in `flags` with them)
/// are `MHD_OPTION_HTTPS_MEM_KEY` and `MHD_OPTION_HTTPS_MEM_CERT`.
/// Returns NULL on failure; `errno` may tell why.
static inline struct MHD_Daemon *CMHD_start_daemon(
    unsigned int flags,
    uint16_t port,
    const struct sockaddr *bind_address,
    unsigned int thread_pool_size,
    unsigned int connection_timeout,
    unsigned int connection_limit,
    unsigned int per_address_connection_limit,
    size_t connection_memory_limit,
    MHD_AccessHandlerCallback access_handler,
    void *access_handler_cls,
    MHD_RequestCompletedCallback completed,
    void *completed_cls,
    MHD_NotifyConnectionCallback notify_connection,
    void *notify_connection_cls,
    CMHD_UriLogCallback uri_log,
    void *uri_log_cls,
    struct CMHD_LogTarget *log_target,
    const char *tls_key_pem,
    const char *tls_cert_pem)
{
    struct MHD_OptionItem options[13];
    size_t count = 0;
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)connection_timeout, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_address_connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)CMHD_unescape_keeping_nul, NULL};
    if (notify_connection != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection, notify_connection_cls};
    }
    if (uri_log != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls};
    }
    if (bind_address != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)bind_address};
    }
    if (tls_key_pem != NULL && tls_cert_pem != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key_pem};
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert_pem};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    if (log_target != NULL) {
        return MHD_start_daemon(
            flags, port, NULL, NULL, access_handler, access_handler_cls,
            MHD_OPTION_EXTERNAL_LOGGER, CMHD_log_trampoline, (void *)log_target,
            MHD_OPTION_ARRAY, options,
            MHD_OPTION_END);
    }
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

/// Copies the peer's IP address into `bytes` (16 bytes, network order): returns 4 for IPv4 (the
/// first 4 bytes; an IPv4-mapped IPv6 address counts as IPv4), 6 for IPv6, 0 if unknown.
/// Cheap enough for every request; `CMHD_format_address` writes it out when someone asks.
static inline int CMHD_client_address_bytes(struct MHD_Connection *connection, uint8_t bytes[16]) {
    if (connection == NULL || bytes == NULL) return 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        memcpy(bytes, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        const struct in6_addr *ipv6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(ipv6)) {
            memcpy(bytes, &ipv6->s6_addr[12], 4);
            return 4;
        }
        memcpy(bytes, ipv6->s6_addr, 16);
        return 6;
    }
    return 0;
}

/// Writes an address from `CMHD_client_address_bytes` as numeric text (IPv4 dotted, IPv6 as
/// `inet_ntop` writes it) into `buffer`, NUL-terminated. Returns 0 on success, -1 otherwise.
static inline int CMHD_format_address(int version, const uint8_t bytes[16], char *buffer, size_t size) {
    if (bytes == NULL || buffer == NULL || size == 0) return -1;
    int family = version == 4 ? AF_INET : version == 6 ? AF_INET6 : -1;
    if (family < 0) return -1;
    return inet_ntop(family, bytes, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

#endif
