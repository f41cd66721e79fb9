// A stand-in server with no collector and no runtime of its own: one epoll loop answering
// GET /hello (keep-alive, or a close when the request says Connection: close) after BUSY_US
// of CPU, and 404 to any other request, and pausing its loop PAUSE_MS every PAUSE_EVERY_MS
// from a random phase (a busy wait: the pause of a collector or of a timer). What a ramp finds on it is the pause's effect
// and the host's, nothing a runtime adds: the check of a ramp's window rule (20 ms every 3 s:
// perf/lib/studies/window_check.js, scripts/window_check.sh).
// It records its loop's runtime events as the project's servers do (contract.json runtime_events,
// perf/lib/measure/runtime_events.js: a heartbeat every 10 ms and how late it ran, written every
// 100 ms) to the file RUNTIME_EVENTS_FILE names, so that the ramps find its pauses as they find a
// collector's. Usage: pausing_server --host H --port P; it says "listening on http://H:P" when ready.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUF 8192
#define MAX_FDS 65536

static const char HELLO[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: keep-alive\r\n\r\nasdfghjkl;";
static const char HELLO_CLOSE[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: close\r\n\r\nasdfghjkl;";
static const char NOT_FOUND[] = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: keep-alive\r\n\r\nNot Found\n";

static char *bufs[MAX_FDS];
static size_t lens[MAX_FDS];

static double busy_us;

#define HEARTBEAT_MS 10
#define FLUSH_MS 100

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void drop(int ep, int fd) {
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    lens[fd] = 0;
}

// Answers every whole request in the connection's buffer; 0 to keep it, -1 to close it.
static int serve(int fd) {
    char *b = bufs[fd];
    size_t start = 0;
    for (;;) {
        b[lens[fd]] = 0;
        char *end = strstr(b + start, "\r\n\r\n");
        if (!end) break;
        size_t head = (size_t)(end - (b + start)) + 4;
        int hello = strncmp(b + start, "GET /hello ", 11) == 0;
        int closing = memmem(b + start, head, "Connection: close", 17) || memmem(b + start, head, "connection: close", 17);
        const char *reply = hello ? (closing ? HELLO_CLOSE : HELLO) : NOT_FOUND;
        if (hello && busy_us > 0) {
            double until = now_ms() + busy_us / 1e3;
            while (now_ms() < until) {}
        }
        size_t n = strlen(reply);
        if (write(fd, reply, n) != (ssize_t)n || closing) return -1;
        start += head;
    }
    memmove(b, b + start, lens[fd] - start);
    lens[fd] -= start;
    return lens[fd] >= BUF - 1 ? -1 : 0;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1";
    int port = 8090;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--host")) host = argv[i + 1];
        else if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
    }
    double every = getenv("PAUSE_EVERY_MS") ? atof(getenv("PAUSE_EVERY_MS")) : 0;
    double pause = getenv("PAUSE_MS") ? atof(getenv("PAUSE_MS")) : 0;
    busy_us = getenv("BUSY_US") ? atof(getenv("BUSY_US")) : 0;
    signal(SIGPIPE, SIG_IGN);
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    inet_pton(AF_INET, host, &a.sin_addr);
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 511)) {
        fprintf(stderr, "pausing_server: cannot listen on %s:%d: %s\n", host, port, strerror(errno));
        return 1;
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = ls };
    epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
    srand((unsigned)(now_ms() * 1000));
    double next_pause = every > 0 ? now_ms() + every * (rand() / (RAND_MAX + 1.0)) : 0;
    const char *events_file = getenv("RUNTIME_EVENTS_FILE");
    FILE *events = events_file && *events_file ? fopen(events_file, "w") : NULL;
    double next_beat = now_ms() + HEARTBEAT_MS, flushed = now_ms();
    if (events) fprintf(events, "# runtime-events 1 runtime=c alloc=bytes gc_position=exact heartbeat_ms=%d\nh %.3f 0\n", HEARTBEAT_MS, now_ms());
    printf("pausing_server listening on http://%s:%d\n", host, port);
    fflush(stdout);
    struct epoll_event evs[256];
    for (;;) {
        double wake = events ? next_beat : 1e300;
        if (every > 0 && next_pause < wake) wake = next_pause;
        double left = wake - now_ms();
        int n = epoll_wait(ep, evs, 256, wake == 1e300 ? -1 : left > 0 ? (int)left + 1 : 0);
        if (every > 0 && now_ms() >= next_pause) {
            double until = now_ms() + pause;
            while (now_ms() < until) {}
            next_pause += every;
        }
        double t = now_ms();
        if (events && t >= next_beat) {
            fprintf(events, "h %.3f %.3f\n", t, t - next_beat);
            next_beat = t + HEARTBEAT_MS;
            if (t - flushed >= FLUSH_MS) {
                fflush(events);
                flushed = t;
            }
        }
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == ls) {
                int c;
                while ((c = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= MAX_FDS) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    if (!bufs[c]) bufs[c] = malloc(BUF);
                    lens[c] = 0;
                    struct epoll_event ce = { .events = EPOLLIN, .data.fd = c };
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                }
                continue;
            }
            ssize_t r = read(fd, bufs[fd] + lens[fd], BUF - 1 - lens[fd]);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN) continue;
                drop(ep, fd);
                continue;
            }
            lens[fd] += (size_t)r;
            if (serve(fd) < 0) drop(ep, fd);
        }
    }
}
