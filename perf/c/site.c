/* See site.h. */
#include "site.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>

#include <signal.h>

static char site_root[PATH_MAX];

/* contract.json's content_types; anything else is application/octet-stream. */
static const struct { const char *ext; const char *type; } TYPES[] = {
    {".html", "text/html; charset=utf-8"}, {".htm", "text/html; charset=utf-8"},
    {".txt", "text/plain; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"}, {".json", "application/json"},
    {".svg", "image/svg+xml"}, {".png", "image/png"},
    {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
};

static void usage(const char *name) {
    fprintf(stderr, "usage: %s --host HOST --port PORT --root DIR [--read-write]\n", name);
}

void parse_options(const char *name, int argc, char **argv, struct options *out) {
    out->host = "127.0.0.1";
    out->port = 8083;
    out->root = "shared_www";
    out->read_write = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--read-write") == 0) {
            out->read_write = 1;
        } else if (i + 1 < argc && strcmp(a, "--host") == 0) {
            out->host = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--root") == 0) {
            out->root = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--port") == 0) {
            char *end;
            long port = strtol(argv[++i], &end, 10);
            if (*end || port < 1 || port > 65535) {
                fprintf(stderr, "%s: --port takes 1 to 65535, not '%s'\n", name, argv[i]);
                exit(2);
            }
            out->port = (int)port;
        } else {
            fprintf(stderr, "%s: unknown option '%s'\n", name, a);
            usage(name);
            exit(2);
        }
    }
}

void site_open(const char *name, const char *root) {
    struct stat st;
    if (!realpath(root, site_root) || stat(site_root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: the site folder %s cannot be used: %s\n", name, root, strerror(errno ? errno : ENOTDIR));
        exit(1);
    }
}

static int hex(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static const char *type_of(const char *file) {
    const char *dot = strrchr(file, '.');
    const char *slash = strrchr(file, '/');
    if (dot && (!slash || dot > slash)) {
        for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
            if (strcasecmp(dot, TYPES[i].ext) == 0) return TYPES[i].type;
        }
    }
    return "application/octet-stream";
}

/* A regular file at path, opened: 0, or -1. */
static int open_regular(const char *path, int *fd, off_t *size) {
    int f = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (f < 0) return -1;
    struct stat st;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        return -1;
    }
    *fd = f;
    *size = st.st_size;
    return 0;
}

int site_file(const char *path, size_t path_len, int *fd, off_t *size, const char **type) {
    char decoded[PATH_MAX];
    size_t n = 0;
    if (path_len == 0 || path[0] != '/') return -1;
    for (size_t i = 0; i < path_len; i++) {
        int c = (unsigned char)path[i];
        if (c == '%') {
            int hi = i + 2 < path_len ? hex(path[i + 1]) : -1;
            int lo = i + 2 < path_len ? hex(path[i + 2]) : -1;
            if (hi < 0 || lo < 0) return -1;
            c = hi * 16 + lo;
            i += 2;
        }
        if (c == 0 || n + 1 >= sizeof decoded) return -1;
        decoded[n++] = (char)c;
    }
    decoded[n] = '\0';
    /* Every segment but the last may be empty only as the leading one; none may be "." or
     * "..", nor hidden (the project servers serve neither). */
    for (const char *seg = decoded + 1; *seg;) {
        const char *end = strchr(seg, '/');
        size_t len = end ? (size_t)(end - seg) : strlen(seg);
        if (seg[0] == '.' || (len == 0 && end)) return -1;
        if (!end) break;
        seg = end + 1;
    }
    char full[PATH_MAX + 16];
    int written = snprintf(full, sizeof full, "%s%s", site_root, decoded);
    if (written < 0 || (size_t)written >= sizeof full - 11) return -1;
    struct stat st;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
        strcat(full, full[written - 1] == '/' ? "index.html" : "/index.html");
    }
    if (open_regular(full, fd, size) != 0) return -1;
    *type = type_of(full);
    return 0;
}

void no_delay(const char *name, int listen_fd) {
    int on = 1;
    if (listen_fd < 0 || setsockopt(listen_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0) {
        fprintf(stderr, "%s: cannot set TCP_NODELAY: %s\n", name, strerror(errno));
        exit(1);
    }
}

void listen_http(const char *name, struct event_base *base, struct evhttp *http, const struct options *o) {
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((unsigned short)o->port);
    if (inet_pton(AF_INET, o->host, &sin.sin_addr) != 1) {
        fprintf(stderr, "%s: --host takes an IPv4 address, not '%s'\n", name, o->host);
        exit(2);
    }
    struct evconnlistener *listener = evconnlistener_new_bind(base, NULL, NULL, LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 511, (struct sockaddr *)&sin, sizeof sin);
    if (!listener || !evhttp_bind_listener(http, listener)) {
        fprintf(stderr, "%s: cannot listen on %s:%d: %s\n", name, o->host, o->port, evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
        exit(1);
    }
    no_delay(name, evconnlistener_get_fd(listener));
}

void say_ready(const char *name, const struct options *o) {
    printf("%s listening on http://%s:%d (root %s%s)\n", name, o->host, o->port, site_root, o->read_write ? ", files read and written" : ", files by sendfile");
    fflush(stdout);
}

int site_add_file(struct evbuffer *out, int fd, off_t size, int read_write) {
    if (!read_write) return evbuffer_add_file(out, fd, 0, size);
    struct evbuffer_file_segment *seg = evbuffer_file_segment_new(fd, 0, size, EVBUF_FS_CLOSE_ON_FREE | EVBUF_FS_DISABLE_SENDFILE | EVBUF_FS_DISABLE_MMAP);
    if (!seg) {
        close(fd);
        return -1;
    }
    int rc = evbuffer_add_file_segment(out, seg, 0, size);
    evbuffer_file_segment_free(seg); /* the buffer keeps its own reference */
    return rc;
}

static void on_signal(evutil_socket_t sig, short events, void *base) {
    (void)sig;
    (void)events;
    event_base_loopbreak(base);
}

void serve_until_stopped(struct event_base *base) {
    signal(SIGPIPE, SIG_IGN);
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    struct event *intr = evsignal_new(base, SIGINT, on_signal, base);
    event_add(term, NULL);
    event_add(intr, NULL);
    event_base_dispatch(base);
    event_free(term);
    event_free(intr);
}
