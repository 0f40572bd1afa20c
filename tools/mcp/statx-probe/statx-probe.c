// statx-probe DIR [ITERATIONS] — the kernel's share of list_directory on DIR, without any server: per
// iteration, open + getdents64 to the end + close (the scan), then one statx(dirfd, name, AT_SYMLINK_NOFOLLOW,
// STATX_BASIC_STATS) per entry, done five ways:
//   sequential   one thread, one syscall per entry (what ServerFS does);
//   io_uring     all entries as IORING_OP_STATX in one ring, submitted and reaped in batches;
//   2 hot        this thread and a second one that spins waiting for work, half the entries each;
//   2 woken      the same, but the second thread sleeps on a semaphore and the caller idles 2 ms first,
//                as a server's spare core is between requests;
//   2 pinned     2 woken with the caller pinned to CPU 0 and the second thread to CPU 1 (the scheduler tends
//                to wake a thread on its waker's CPU, where it only takes turns with the caller).
// Prints the median wall time of each over ITERATIONS (default 200). See statx-probe.sh.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_NAMES 100000

static char **names;
static int count;
static int dirfd_;
static struct statx *results;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void stat_range(int from, int to) {
    for (int i = from; i < to; i++) {
        if (statx(dirfd_, names[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &results[i]) != 0) {
            perror("statx");
            exit(1);
        }
    }
}

static int scan(const char *dir, int keep) {
    static char buf[64 * 1024];
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        perror("open");
        exit(1);
    }
    int n = 0;
    for (;;) {
        long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (got < 0) {
            perror("getdents64");
            exit(1);
        }
        if (got == 0) break;
        for (long at = 0; at < got;) {
            struct dirent64 *d = (struct dirent64 *)(buf + at);
            if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0) {
                if (keep && n < MAX_NAMES) names[n] = strdup(d->d_name);
                n++;
            }
            at += d->d_reclen;
        }
    }
    close(fd);
    return n;
}

static atomic_int hot_go, hot_done;
/** A second thread that sleeps on go, stats the second half, and posts done. */
struct sleeper {
    sem_t go, done;
};
static struct sleeper woken_sleeper, pinned_sleeper;

static void *hot_worker(void *unused) {
    (void)unused;
    int seen = 0;
    for (;;) {
        int go;
        while ((go = atomic_load(&hot_go)) == seen) {
        }
        seen = go;
        stat_range(count / 2, count);
        atomic_fetch_add(&hot_done, 1);
    }
    return NULL;
}

static void *sleeping_worker(void *arg) {
    struct sleeper *w = arg;
    for (;;) {
        sem_wait(&w->go);
        stat_range(count / 2, count);
        sem_post(&w->done);
    }
    return NULL;
}

static double woken_round(struct sleeper *w) {
    usleep(2000);
    double t0 = now_ms();
    sem_post(&w->go);
    stat_range(0, count / 2);
    sem_wait(&w->done);
    return now_ms() - t0;
}

static void stat_uring(struct io_uring *ring) {
    int submitted = 0, done = 0;
    while (done < count) {
        while (submitted < count) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            if (sqe == NULL) break;
            io_uring_prep_statx(sqe, dirfd_, names[submitted], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
                                &results[submitted]);
            submitted++;
        }
        io_uring_submit_and_wait(ring, 1);
        struct io_uring_cqe *cqe;
        unsigned head;
        int reaped = 0;
        io_uring_for_each_cqe(ring, head, cqe) {
            if (cqe->res < 0) {
                fprintf(stderr, "io_uring statx: %s\n", strerror(-cqe->res));
                exit(1);
            }
            reaped++;
        }
        io_uring_cq_advance(ring, reaped);
        done += reaped;
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: statx-probe DIR [ITERATIONS]\n");
        return 64;
    }
    int iterations = argc > 2 ? atoi(argv[2]) : 200;
    names = calloc(MAX_NAMES, sizeof *names);
    count = scan(argv[1], 1);
    if (count > MAX_NAMES) count = MAX_NAMES;
    results = calloc(count, sizeof *results);
    dirfd_ = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct io_uring ring;
    int rc = io_uring_queue_init(1024, &ring, 0);
    int uring = rc == 0;
    if (!uring) fprintf(stderr, "io_uring unavailable: %s\n", strerror(-rc));
    pthread_t hot, woken, pinned;
    struct sleeper *sleepers[] = {&woken_sleeper, &pinned_sleeper};
    for (int i = 0; i < 2; i++) {
        sem_init(&sleepers[i]->go, 0, 0);
        sem_init(&sleepers[i]->done, 0, 0);
    }
    pthread_create(&hot, NULL, hot_worker, NULL);
    pthread_create(&woken, NULL, sleeping_worker, &woken_sleeper);
    pthread_create(&pinned, NULL, sleeping_worker, &pinned_sleeper);
    cpu_set_t all, cpu0, cpu1;
    sched_getaffinity(0, sizeof all, &all);
    CPU_ZERO(&cpu0);
    CPU_SET(0, &cpu0);
    CPU_ZERO(&cpu1);
    CPU_SET(1, &cpu1);
    int can_pin = CPU_ISSET(0, &all) && CPU_ISSET(1, &all) && pthread_setaffinity_np(pinned, sizeof cpu1, &cpu1) == 0;

    double *t_scan = calloc(iterations, sizeof(double)), *t_seq = calloc(iterations, sizeof(double));
    double *t_uring = calloc(iterations, sizeof(double)), *t_hot = calloc(iterations, sizeof(double));
    double *t_woken = calloc(iterations, sizeof(double)), *t_pinned = calloc(iterations, sizeof(double));
    for (int i = 0; i < iterations; i++) {
        double t0 = now_ms();
        scan(argv[1], 0);
        t_scan[i] = now_ms() - t0;

        t0 = now_ms();
        stat_range(0, count);
        t_seq[i] = now_ms() - t0;

        if (uring) {
            t0 = now_ms();
            stat_uring(&ring);
            t_uring[i] = now_ms() - t0;
        }

        int done = atomic_load(&hot_done);
        t0 = now_ms();
        atomic_fetch_add(&hot_go, 1);
        stat_range(0, count / 2);
        while (atomic_load(&hot_done) == done) {
        }
        t_hot[i] = now_ms() - t0;

        t_woken[i] = woken_round(&woken_sleeper);

        if (can_pin) {
            sched_setaffinity(0, sizeof cpu0, &cpu0);
            t_pinned[i] = woken_round(&pinned_sleeper);
            sched_setaffinity(0, sizeof all, &all);
        }
    }
    printf("entries %d, %d iterations, median ms: scan (open, getdents64, close) %.3f; statx of every entry: "
           "sequential %.3f, io_uring %s%.3f, 2 hot threads %.3f, 2 threads with a woken one %.3f, the same pinned "
           "%s%.3f\n",
           count, iterations, median(t_scan, iterations), median(t_seq, iterations), uring ? "" : "(unavailable) ",
           uring ? median(t_uring, iterations) : 0.0, median(t_hot, iterations), median(t_woken, iterations),
           can_pin ? "" : "(needs CPUs 0 and 1) ", can_pin ? median(t_pinned, iterations) : 0.0);
    return 0;
}
