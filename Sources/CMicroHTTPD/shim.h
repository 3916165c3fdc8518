// What Swift cannot call in libmicrohttpd: MHD_start_daemon is variadic, and an
// upload arrives in pieces over several calls of the access handler. This shim
// starts a daemon with a fixed list of options, gathers each request's body up
// to a limit, and hands Swift one complete request a call. Nothing else.
#ifndef GESTURES_MICROHTTPD_SHIM_H
#define GESTURES_MICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/// One complete request, as the shim hands it to Swift.
typedef struct gestures_http_request {
    struct MHD_Connection *connection;
    const char *method;
    const char *url;
    /// The body (not NUL-terminated), or NULL when there is none.
    const char *body;
    size_t body_length;
    /// Whether the body went over the limit (it is then dropped, not held).
    int body_too_large;
} gestures_http_request;

/// Answers one request: queues a response on `request->connection` and returns an MHD_Result.
typedef enum MHD_Result (*gestures_http_handler)(void *context, const gestures_http_request *request);

/// What the shim keeps for one request while its body arrives.
typedef struct gestures_http_upload {
    char *data;
    size_t length;
    int too_large;
} gestures_http_upload;

/// The daemon's context: Swift's handler, its context, and the body limit.
typedef struct gestures_http_server {
    gestures_http_handler handler;
    void *context;
    size_t body_limit;
} gestures_http_server;

static enum MHD_Result gestures_http_access(
    void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)version;
    gestures_http_server *server = (gestures_http_server *)cls;
    gestures_http_upload *upload = (gestures_http_upload *)*con_cls;
    if (upload == NULL) {
        upload = (gestures_http_upload *)calloc(1, sizeof(gestures_http_upload));
        if (upload == NULL) return MHD_NO;
        *con_cls = upload;
        return MHD_YES;  // the first call carries the headers only
    }
    if (*upload_data_size > 0) {
        size_t piece = *upload_data_size;
        *upload_data_size = 0;
        if (!upload->too_large) {
            if (upload->length + piece > server->body_limit) {
                upload->too_large = 1;
                free(upload->data);
                upload->data = NULL;
                upload->length = 0;
            } else {
                char *grown = (char *)realloc(upload->data, upload->length + piece);
                if (grown == NULL) return MHD_NO;
                memcpy(grown + upload->length, upload_data, piece);
                upload->data = grown;
                upload->length += piece;
            }
        }
        return MHD_YES;
    }
    gestures_http_request request = {connection, method, url, upload->data, upload->length, upload->too_large};
    return server->handler(server->context, &request);
}

static void gestures_http_completed(
    void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    gestures_http_upload *upload = (gestures_http_upload *)*con_cls;
    if (upload != NULL) {
        free(upload->data);
        free(upload);
        *con_cls = NULL;
    }
}

/// Starts a daemon listening on the loopback address only (127.0.0.1, or ::1
/// with `ipv6`), on `port` (0: any free port), one thread a connection (a
/// live stream's callback may wait for data), each connection closed after
/// `timeout_seconds` without traffic, at most `connection_limit` at once and
/// `memory_limit` bytes each. Returns NULL when it cannot listen.
static inline struct MHD_Daemon *gestures_http_start(
    gestures_http_server *server, int ipv6, unsigned short port, unsigned int timeout_seconds,
    unsigned int connection_limit, size_t memory_limit) {
    struct sockaddr_in address4;
    struct sockaddr_in6 address6;
    struct sockaddr *address;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
    if (ipv6) {
        memset(&address6, 0, sizeof address6);
        address6.sin6_family = AF_INET6;
        address6.sin6_port = htons(port);
        address6.sin6_addr = in6addr_loopback;
        address = (struct sockaddr *)&address6;
        flags |= MHD_USE_IPv6;
    } else {
        memset(&address4, 0, sizeof address4);
        address4.sin_family = AF_INET;
        address4.sin_port = htons(port);
        address4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address = (struct sockaddr *)&address4;
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, gestures_http_access, server, MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, gestures_http_completed, NULL, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}

/// The port a daemon listens on (after port 0 chose one), or 0.
static inline unsigned short gestures_http_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// A header of the request (`Host`, `Origin`), or NULL.
static inline const char *gestures_http_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// A cookie of the request, or NULL.
static inline const char *gestures_http_cookie(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_COOKIE_KIND, name);
}

/// An argument of the request's query string, or NULL.
static inline const char *gestures_http_argument(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}

/// A response holding a copy of `length` bytes.
static inline struct MHD_Response *gestures_http_response_copying(const void *bytes, size_t length) {
    return MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

/// A response of unknown length whose bytes `reader` gives as they come (a live stream).
static inline struct MHD_Response *gestures_http_response_streaming(
    MHD_ContentReaderCallback reader, void *context, MHD_ContentReaderFreeCallback free_context) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, reader, context, free_context);
}

/// What a stream's reader returns at its end.
static inline ssize_t gestures_http_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

#endif
