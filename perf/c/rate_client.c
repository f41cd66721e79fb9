/* A constant request rate over a pool of keep-alive connections, in C: the load generator of
 * the scenarios and ramp steps of kind `rate` (perf/lib/engines/rate_client.js runs it), with
 * the schedule of the built-in engine (perf/lib/engines/constant_rate.js): request i is due at
 * t0 + i / rate whatever the server does, carried by connection i mod connections, and its
 * latency counts from that moment; a connection still busy with an earlier reply holds the next
 * request back and the wait counts as latency (no coordinated omission). A connection is
 * opened with its first request (the connect counts in that request's latency, as there) and
 * again after the server closed it or it failed.
 *
 * Why it exists: on one core Node's event loop gives out at ~26,000-36,000 requests a second,
 * below where Node's own server saturates on keep-alive, so a ramp could only say
 * "at least"; wrk2's -R does this but is not in Debian, and no npm package sends on a schedule
 * with latency from the due time.
 *
 * How it stays light: it wakes on a clock, not on every reply. Each tick (every PACE_NS while a
 * request is in flight or due; at the next due time when none is) it takes every reply that has
 * arrived from epoll without waiting, sends every request due by then, and sleeps to the next
 * tick. A reply ends at the time the kernel received its last bytes (SO_TIMESTAMPNS), not when
 * this process read it, so reading in ticks does not move a reply's end. A wake per reply and a
 * timerfd per timer (libevent's precise timers) cost ~30 µs a request on this machine's virtual
 * CPU: 89 % of the core at 30,000 a second. The price: a request is sent up to PACE_NS after it
 * could have gone (due, and its connection free again), its lag, which counts in its latency as
 * the built-in engine's does.
 *
 * Usage: rate_client --host H --port P --connections C --rate R --requests N --timeout-ms T
 *                    --request FILE --out FILE [--head] [--warm]
 *   --request  the request's exact bytes (the runner builds them, as its own engines send them)
 *   --out      one record per request, in request order (struct record below, little-endian)
 *   --head     the request is a HEAD: its replies have no body
 *   --warm     before time zero, open every connection and send one request on each, its reply
 *              awaited (up to the timeout) and not recorded: the schedule then starts on
 *              connections already open, as a steady load finds them, rather than timing
 *              C handshakes and the server's first reply on each in its first requests
 * Prints one line of JSON on stdout when every request has its reply, error or timeout:
 *   {"launched":N,"reconnects":n,"fd_failures":n,"lag_mean_ms":x,"lag_p99_ms":x,"lag_max_ms":x,"t0_ms":x,"warmed":n,"warm_ms":x}
 *   (t0_ms: its time zero, CLOCK_MONOTONIC; warmed: the connections --warm left open with a
 *   reply, warm_ms: how long it took, both 0 without --warm)
 * lag: how long after it could have gone (due, and its connection free) each request went: this
 * process's own lateness in the latencies, but for two cases it cannot time: a handshake not done
 * when connect() returns (on loopback and a veth it is) is seen at the next tick, and a reply
 * whose end is the server's close (no Content-Length) ends when it is read.
 * Exit 2 on a usage error, 1 on any other failure, with one line on stderr. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <http_parser.h>

/* One request's outcome. The runner reads it (rate_client.js RECORD_BYTES and its offsets). */
struct record {
    double end_ms;    /* reply complete (or the error), ms after t0 */
    float connect_ms; /* the connect this request waited for; NaN when it reused a connection */
    uint16_t status;  /* 0 on an error */
    uint8_t error;    /* samples.js ERROR_CODES: 0 none, 1 refused, 2 reset, 3 timeout, 4 other */
    uint8_t done;     /* 1 once it has an outcome */
    uint32_t conn;    /* its connection, 1-based */
    uint32_t reserved;
};
enum { ERR_NONE = 0, ERR_REFUSED = 1, ERR_RESET = 2, ERR_TIMEOUT = 3, ERR_OTHER = 4 };

/* The shortest sleep between two ticks, and the longest while a request is in flight. */
#define PACE_NS 250000
#define HARVEST_ROUNDS 64
/* Deadlines are checked this often: a request times out within this of its deadline. */
#define DEADLINE_CHECK_NS 50000000
#define CLOSE_WAIT_NS 1000000000

/* CLOSING: its last reply came on a connection the server closes: this side's write half shut,
 * waiting for the server's close (up to CLOSE_WAIT_NS), as the built-in engines end a connection. */
enum lane_state { IDLE, CONNECTING, WAITING, CLOSING };

struct lane {
    uint32_t id;
    int fd;
    enum lane_state state;
    uint32_t watching; /* the epoll events asked for on fd (0: not registered) */
    uint64_t next;     /* the lane's next request: id - 1 + k × connections */
    uint64_t cur;      /* the request in flight */
    int64_t connect_started;
    float connect_ms;
    size_t sent;
    int complete;      /* the reply is whole */
    int keep;          /* and the connection may carry the next request */
    int failed;        /* its last connection ended in an error */
    int64_t free_at;   /* when its last reply was received (or its last request failed) */
    http_parser parser;
};

static struct lane *lanes;
static struct record *records;
static struct sockaddr_in addr;
static char *request_bytes;
static size_t request_len;
static int is_head, epfd;
/* warming: --warm's requests are in flight (finish records none of them); warm_outcomes: those
 * with a reply or an error; warmed: the connections left open with a reply. */
static int warming;
static uint64_t warm_outcomes, warmed;
static int64_t warm_ns;
/* launched: requests sent; outcomes: requests with a reply, error or timeout; finished: lanes done. */
static uint64_t connections, requests, launched, handed, outcomes, finished, reconnects, fd_failures;
/* reconnects: connections opened again after one failed; fd_failures: sockets refused for want of a descriptor. */
static double rate;
static int64_t timeout_ns, t0;
static int64_t realtime_offset; /* CLOCK_REALTIME − CLOCK_MONOTONIC, for the kernel's receive times */
static http_parser_settings settings;

/* The requests' lag (send_next): a histogram of 10 µs buckets up to 10 s, the sum and the maximum. */
#define LAG_BUCKET_NS 10000
#define LAG_BUCKETS 1000000
static uint32_t *lag_hist;
static uint64_t lag_count;
static double lag_sum_ns;
static int64_t lag_max_ns;

static int64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* realtime_offset: CLOCK_REALTIME against the midpoint of two CLOCK_MONOTONIC reads around it,
 * read again where the two are more than 20 µs apart (this process was preempted between them). */
static void read_offset(void) {
    for (int tries = 0; tries < 5; tries++) {
        int64_t before = now_ns(), real = clock_ns(CLOCK_REALTIME), after = now_ns();
        realtime_offset = real - (before + after) / 2;
        if (after - before < 20000) return;
    }
}

static int64_t due_ns(uint64_t i) { return t0 + (int64_t)((double)i * 1e9 / rate); }

static void die(int code, const char *message) {
    fprintf(stderr, "rate_client: %s\n", message);
    exit(code);
}

/* An errno as the runner's engines name it (perf/lib/engines/http_exchange.js classifyError). */
static uint8_t classify(int err) {
    switch (err) {
    case ECONNREFUSED: return ERR_REFUSED;
    case ECONNRESET: case EPIPE: case ECONNABORTED: return ERR_RESET;
    case ETIMEDOUT: return ERR_TIMEOUT;
    default: return ERR_OTHER;
    }
}

static void watch(struct lane *l, uint32_t events) {
    if (l->watching == events) return;
    struct epoll_event ev = { .events = events, .data.ptr = l };
    epoll_ctl(epfd, l->watching ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, l->fd, &ev);
    l->watching = events;
}

static void close_lane(struct lane *l) {
    if (l->fd < 0) return;
    close(l->fd); /* leaves the epoll set with it */
    l->fd = -1;
    l->watching = 0;
}

/* The request in flight ends at `at` (monotonic ns). A lane with its last request done is finished. */
static void finish(struct lane *l, int64_t at, uint16_t status, uint8_t error) {
    if (warming) {
        /* A warm-up request: no record; its connection stays for the run where the server keeps it. */
        warm_outcomes++;
        l->state = IDLE;
        if (error || !l->keep) close_lane(l);
        return;
    }
    struct record *r = &records[l->cur];
    r->end_ms = (double)(at - t0) / 1e6;
    r->connect_ms = l->connect_ms;
    r->status = error ? 0 : status;
    r->error = error;
    r->done = 1;
    r->conn = l->id;
    outcomes++;
    l->state = IDLE;
    l->free_at = at;
    if (error) l->failed = 1;
    if (!error && !l->keep && l->next >= requests && l->fd >= 0) {
        l->state = CLOSING;
        shutdown(l->fd, SHUT_WR);
        watch(l, EPOLLIN);
        return;
    }
    if (error || !l->keep) close_lane(l);
    if (l->next >= requests) {
        close_lane(l);
        finished++;
    }
}

/* The lane's connection is closed, its last request done: the lane is finished. */
static void closed(struct lane *l) {
    close_lane(l);
    l->state = IDLE;
    finished++;
}

static void write_request(struct lane *l) {
    while (l->sent < request_len) {
        ssize_t n = write(l->fd, request_bytes + l->sent, request_len - l->sent);
        if (n > 0) {
            l->sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) break; /* the rest when the socket is writable */
        finish(l, now_ns(), 0, classify(errno));
        return;
    }
    watch(l, l->sent < request_len ? EPOLLIN | EPOLLOUT : EPOLLIN);
}

static void on_connected(struct lane *l);
static void start_request(struct lane *l);
static int connect_lane(struct lane *l);

/* Sends the lane's next request, on its connection or on a new one. Returns 0 when it failed at once. */
static int send_next(struct lane *l) {
    /* Its lag: how long after it could have gone (due, and its connection free) it went. */
    int64_t now = now_ns(), could = due_ns(l->next) > l->free_at ? due_ns(l->next) : l->free_at;
    int64_t lag = now > could ? now - could : 0;
    lag_count++;
    lag_sum_ns += (double)lag;
    if (lag > lag_max_ns) lag_max_ns = lag;
    int64_t bucket = lag / LAG_BUCKET_NS;
    lag_hist[bucket < LAG_BUCKETS ? bucket : LAG_BUCKETS - 1]++;
    l->cur = l->next;
    l->next += connections;
    launched++;
    start_request(l);
    if (l->fd >= 0) {
        l->state = WAITING;
        write_request(l);
        return l->state == WAITING;
    }
    return connect_lane(l);
}

/* The lane's next exchange begins: nothing sent, no reply yet. */
static void start_request(struct lane *l) {
    l->sent = 0;
    l->complete = 0;
    l->keep = 0;
    l->connect_ms = NAN;
    http_parser_init(&l->parser, HTTP_RESPONSE);
    l->parser.data = l;
}

/* Opens the lane's connection; its request goes once it is up. Returns 0 when it failed at once. */
static int connect_lane(struct lane *l) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE) fd_failures++;
        finish(l, now_ns(), 0, ERR_OTHER);
        return 0;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    l->fd = fd;
    l->connect_started = now_ns();
    l->state = CONNECTING;
    if (l->failed) reconnects++; /* opened again after a failure (not after a close the server announced) */
    l->failed = 0;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0 || errno == EINPROGRESS) {
        /* On loopback (and a veth) the handshake is done by the time connect() returns: send at
         * once, rather than at the next tick. */
        struct tcp_info info;
        socklen_t len = sizeof info;
        if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 && info.tcpi_state == TCP_ESTABLISHED) {
            on_connected(l);
            return l->state == WAITING;
        }
        watch(l, EPOLLOUT);
        return 1;
    }
    finish(l, now_ns(), 0, classify(errno));
    return 0;
}

/* Sends the lane's requests that are due (handed to it) while it is idle: one, or, where each fails at once, the next. */
static void serve_lane(struct lane *l) {
    while (l->state == IDLE && l->next < handed && send_next(l) == 0) {}
}

static int on_headers_complete(http_parser *p) {
    /* A HEAD reply has no body, whatever its Content-Length says. */
    return is_head && p->status_code >= 200 ? 1 : 0;
}

static int on_message_complete(http_parser *p) {
    struct lane *l = p->data;
    if (p->status_code < 200) return 0; /* an interim 1xx reply: the real one follows */
    l->complete = 1;
    http_parser_pause(p, 1);
    return 0;
}

static void on_connected(struct lane *l) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(l->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) {
        finish(l, now_ns(), 0, classify(err));
        return;
    }
    l->connect_ms = (float)((double)(now_ns() - l->connect_started) / 1e6);
    l->state = WAITING;
    write_request(l);
}

/* Reads what has arrived; the reply ends when the kernel received its last bytes. */
static void on_readable(struct lane *l) {
    static char buf[65536];
    char control[CMSG_SPACE(sizeof(struct timespec))];
    for (;;) {
        struct iovec iov = { buf, sizeof buf };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
        ssize_t n = recvmsg(l->fd, &msg, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        int64_t at = now_ns();
        if (n < 0) {
            finish(l, at, 0, classify(errno));
            return;
        }
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
                struct timespec ts;
                memcpy(&ts, CMSG_DATA(c), sizeof ts);
                int64_t received = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - realtime_offset;
                /* Never before the request was due: the two clocks' offset is read once a tick. */
                if (received < at) at = received > due_ns(l->cur) ? received : due_ns(l->cur);
            }
        }
        size_t parsed = http_parser_execute(&l->parser, &settings, buf, (size_t)n);
        if (l->complete) {
            /* Bytes after the reply were never asked for: then the connection is not used again. */
            l->keep = n > 0 && parsed == (size_t)n && http_should_keep_alive(&l->parser);
            finish(l, at, (uint16_t)l->parser.status_code, ERR_NONE);
            return;
        }
        if (n == 0) {
            finish(l, at, 0, ERR_RESET); /* closed before the reply was complete */
            return;
        }
        if (HTTP_PARSER_ERRNO(&l->parser) != HPE_OK) {
            finish(l, at, 0, ERR_OTHER);
            return;
        }
    }
}

/* Reads what a closing connection still sends, until the server's close. */
static void drain(struct lane *l) {
    static char buf[4096];
    for (;;) {
        ssize_t n = read(l->fd, buf, sizeof buf);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        closed(l);
        return;
    }
}

/* An idle keep-alive connection that became readable: the server closed it (its idle
 * deadline), or sent what was never asked for. Either way it carries nothing more; the lane's
 * next request opens a new one, counted as a reconnect, as constant_rate counts one after a
 * close the server did not announce. */
static void on_idle_readable(struct lane *l) {
    char byte;
    ssize_t n = recv(l->fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close_lane(l);
    l->failed = 1;
}

static void on_event(struct lane *l, uint32_t events) {
    if (l->state == CLOSING) {
        drain(l);
        return;
    }
    if (l->state == IDLE) {
        if (l->fd >= 0) on_idle_readable(l);
        return;
    }
    if (l->state == CONNECTING) {
        on_connected(l);
        return;
    }
    if (l->state != WAITING) return;
    if ((events & EPOLLOUT) && l->sent < request_len) {
        write_request(l);
        if (l->state != WAITING) return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(l);
}

/* Every request due by `now` handed to its lane, and sent where the lane is idle. */
static void hand_due(int64_t now) {
    while (handed < requests && due_ns(handed) <= now) {
        handed++;
        serve_lane(&lanes[(handed - 1) % connections]);
    }
}

static void check_deadlines(int64_t now) {
    for (uint64_t i = 0; i < connections; i++) {
        struct lane *l = &lanes[i];
        if (l->state == CLOSING) {
            if (now >= l->free_at + CLOSE_WAIT_NS) closed(l);
        } else if (l->state != IDLE && now >= due_ns(l->cur) + timeout_ns) {
            finish(l, now, 0, ERR_TIMEOUT);
            serve_lane(l);
        }
    }
}

/* --warm: every lane's connection opened and one request sent on it, its reply awaited until
 * all have one (or an error) or the timeout passed; none is recorded, and a lane whose warm-up
 * did not end well opens a new connection for its first request of the run. */
static void warm_up(void) {
    struct epoll_event events[1024];
    int64_t started = now_ns(), deadline = started + timeout_ns;
    warming = 1;
    for (uint64_t i = 0; i < connections; i++) {
        start_request(&lanes[i]);
        connect_lane(&lanes[i]);
    }
    while (warm_outcomes < connections && now_ns() < deadline) {
        int n = epoll_wait(epfd, events, 1024, 10);
        for (int i = 0; i < n; i++) on_event(events[i].data.ptr, events[i].events);
    }
    for (uint64_t i = 0; i < connections; i++) {
        struct lane *l = &lanes[i];
        if (l->state == IDLE && l->fd >= 0) {
            warmed++;
        } else {
            close_lane(l); /* no reply in time: its first request of the run opens a new one */
            l->state = IDLE;
        }
        l->failed = 0; /* a warm-up that failed is no reconnect of the run's */
    }
    warming = 0;
    warm_ns = now_ns() - started;
}

static void run(void) {
    struct epoll_event events[1024];
    int64_t next_deadline_check = t0 + DEADLINE_CHECK_NS;
    int64_t woke = t0;
    for (;;) {
        int64_t now = now_ns();
        hand_due(now);
        /* Replies that have arrived, without waiting; their lanes send what is due on them. At
         * most HARVEST_ROUNDS full batches a tick, so that no socket can keep the loop here. */
        for (int round = 0; round < HARVEST_ROUNDS; round++) {
            int n = epoll_wait(epfd, events, 1024, 0);
            for (int i = 0; i < n; i++) {
                struct lane *l = events[i].data.ptr;
                on_event(l, events[i].events);
                serve_lane(l);
            }
            if (n < 1024) break;
        }
        if (now >= next_deadline_check) {
            check_deadlines(now);
            next_deadline_check = now + DEADLINE_CHECK_NS;
        }
        if (finished == connections) return;
        /* The next tick: the next due time, but no sooner than PACE_NS after this wake, and no
         * later while a request is in flight. */
        int64_t wake = handed < requests ? due_ns(handed) : INT64_MAX;
        if (wake < woke + PACE_NS || launched > outcomes) wake = woke + PACE_NS;
        if (wake > next_deadline_check) wake = next_deadline_check;
        struct timespec ts = { (time_t)(wake / 1000000000), (long)(wake % 1000000000) };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        woke = now_ns();
        read_offset();
    }
}

static double lag_p99_ms(void) {
    if (!lag_count) return 0;
    uint64_t want = (uint64_t)ceil(0.99 * (double)lag_count), seen = 0;
    for (int b = 0; b < LAG_BUCKETS; b++) {
        seen += lag_hist[b];
        if (seen >= want) return (double)(b + 1) * LAG_BUCKET_NS / 1e6;
    }
    return (double)LAG_BUCKETS * LAG_BUCKET_NS / 1e6;
}

static char *read_request(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *data = malloc(65536);
    *len = data ? fread(data, 1, 65536, f) : 0;
    fclose(f);
    return data;
}

static double number_arg(const char *name, const char *value, double min, double max) {
    char *end;
    double v = strtod(value, &end);
    if (*value == '\0' || *end != '\0' || !(v >= min && v <= max)) {
        char message[160];
        snprintf(message, sizeof message, "%s must be a number from %g to %g, not '%s'", name, min, max, value);
        die(2, message);
    }
    return v;
}

int main(int argc, char **argv) {
    const char *host = NULL, *request_path = NULL, *out_path = NULL;
    double port = 0, timeout_ms = 10000;
    int warm = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--head")) {
            is_head = 1;
            continue;
        }
        if (!strcmp(a, "--warm")) {
            warm = 1;
            continue;
        }
        if (i + 1 >= argc) die(2, "every option but --head and --warm takes a value; usage: rate_client --host H --port P --connections C --rate R --requests N --timeout-ms T --request FILE --out FILE [--head] [--warm]");
        const char *v = argv[++i];
        if (!strcmp(a, "--host")) host = v;
        else if (!strcmp(a, "--port")) port = number_arg(a, v, 1, 65535);
        else if (!strcmp(a, "--connections")) connections = (uint64_t)number_arg(a, v, 1, 1000000);
        else if (!strcmp(a, "--rate")) rate = number_arg(a, v, 0.001, 1e8);
        else if (!strcmp(a, "--requests")) requests = (uint64_t)number_arg(a, v, 1, 1e8);
        else if (!strcmp(a, "--timeout-ms")) timeout_ms = number_arg(a, v, 1, 1e7);
        else if (!strcmp(a, "--request")) request_path = v;
        else if (!strcmp(a, "--out")) out_path = v;
        else {
            char message[160];
            snprintf(message, sizeof message, "unknown option '%s'", a);
            die(2, message);
        }
    }
    if (!host || !port || !connections || !rate || !requests || !request_path || !out_path) die(2, "--host, --port, --connections, --rate, --requests, --request and --out are required");
    if (connections > requests) connections = requests;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) die(2, "--host must be an IPv4 address");
    request_bytes = read_request(request_path, &request_len);
    if (!request_bytes || !request_len) die(1, "cannot read the request file");
    timeout_ns = (int64_t)(timeout_ms * 1e6);
    records = calloc(requests, sizeof *records);
    lanes = calloc(connections, sizeof *lanes);
    lag_hist = calloc(LAG_BUCKETS, sizeof *lag_hist);
    if (!records || !lanes || !lag_hist) die(1, "out of memory");
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die(1, "cannot create an epoll instance");
    signal(SIGPIPE, SIG_IGN);
    memset(&settings, 0, sizeof settings);
    settings.on_headers_complete = on_headers_complete;
    settings.on_message_complete = on_message_complete;
    for (uint64_t i = 0; i < connections; i++) {
        lanes[i].id = (uint32_t)(i + 1);
        lanes[i].fd = -1;
        lanes[i].next = i;
    }
    /* Time zero after the warm-up: its requests are no part of the schedule. */
    if (warm) warm_up();
    read_offset();
    t0 = now_ns();
    run();

    FILE *out = fopen(out_path, "wb");
    if (!out || fwrite(records, sizeof *records, requests, out) != requests || fclose(out) != 0) die(1, "cannot write the records file");
    /* t0_ms: its time zero on CLOCK_MONOTONIC, so that its times line up with the servers' events. */
    printf("{\"launched\":%llu,\"reconnects\":%llu,\"fd_failures\":%llu,\"lag_mean_ms\":%.3f,\"lag_p99_ms\":%.3f,\"lag_max_ms\":%.3f,\"t0_ms\":%.3f,\"warmed\":%llu,\"warm_ms\":%.3f}\n",
           (unsigned long long)launched, (unsigned long long)reconnects, (unsigned long long)fd_failures,
           lag_count ? lag_sum_ns / (double)lag_count / 1e6 : 0.0, lag_p99_ms(), (double)lag_max_ns / 1e6, (double)t0 / 1e6,
           (unsigned long long)warmed, (double)warm_ns / 1e6);
    return 0;
}
