/* The system-call floor of a default sitemapgen run, for bench/run.sh.
 *
 * It does only what no sitemap generator reading page heads can avoid: walk the tree
 * (readdir, trusting d_type), and for every *.html file open it, fstat it, read its
 * first 16 KiB and close it, on one thread per core (or -j N). It prints the number of
 * pages and of bytes read, so the work cannot be optimised away. With -a it reads every
 * page to its end, 64 KiB at a time: the floor of a run that reads whole pages (images,
 * the "content" source).
 *
 *   cc -O2 -pthread -o floor bench/floor.c && ./floor [-a] [-j N] DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD_BYTES (16 * 1024)
#define WHOLE_BYTES (64 * 1024)

/* -a: read whole pages. */
static int whole = 0;

/* A stack of directories still to read, shared by the threads. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t more;
    char **dirs;
    size_t len, cap;
    int busy; /* threads reading a directory, which may push more */
} work = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0};

static unsigned long long total_pages, total_bytes;

static void push(char *dir) {
    if (work.len == work.cap) {
        work.cap = work.cap ? work.cap * 2 : 1024;
        work.dirs = realloc(work.dirs, work.cap * sizeof *work.dirs);
        if (!work.dirs) { perror("realloc"); exit(1); }
    }
    work.dirs[work.len++] = dir;
}

/* The next directory, or NULL when every directory has been read. */
static char *pop(void) {
    pthread_mutex_lock(&work.lock);
    while (work.len == 0 && work.busy > 0) pthread_cond_wait(&work.more, &work.lock);
    char *dir = NULL;
    if (work.len > 0) {
        dir = work.dirs[--work.len];
        work.busy++;
    } else {
        pthread_cond_broadcast(&work.more);
    }
    pthread_mutex_unlock(&work.lock);
    return dir;
}

static int is_html(const char *name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".html") == 0;
}

/* Reads one directory: its pages now, its subdirectories pushed for any thread. */
static void read_dir(char *path, unsigned long long *pages, unsigned long long *bytes,
                     char *buf) {
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
    if (!d) { perror(path); return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        if (e->d_type == DT_DIR) {
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *sub = malloc(n);
            snprintf(sub, n, "%s/%s", path, e->d_name);
            pthread_mutex_lock(&work.lock);
            push(sub);
            pthread_cond_signal(&work.more);
            pthread_mutex_unlock(&work.lock);
        } else if (e->d_type == DT_REG && is_html(e->d_name)) {
            int fd = openat(dfd, e->d_name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            struct stat st;
            if (fd < 0 || fstat(fd, &st) != 0) { perror(e->d_name); if (fd >= 0) close(fd); continue; }
            ssize_t got;
            do {
                got = read(fd, buf, whole ? WHOLE_BYTES : HEAD_BYTES);
                if (got > 0) *bytes += (unsigned long long)got;
            } while (whole && got > 0);
            close(fd);
            *pages += 1;
        }
    }
    closedir(d);
}

static void *worker(void *arg) {
    (void)arg;
    char *buf = malloc(WHOLE_BYTES);
    unsigned long long pages = 0, bytes = 0;
    char *dir;
    while ((dir = pop())) {
        read_dir(dir, &pages, &bytes, buf);
        free(dir);
        pthread_mutex_lock(&work.lock);
        work.busy--;
        pthread_cond_broadcast(&work.more);
        pthread_mutex_unlock(&work.lock);
    }
    pthread_mutex_lock(&work.lock);
    total_pages += pages;
    total_bytes += bytes;
    pthread_mutex_unlock(&work.lock);
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    int i = 1;
    if (argc > 1 && strcmp(argv[i], "-a") == 0) { whole = 1; i++; }
    if (argc > i + 1 && strcmp(argv[i], "-j") == 0) { threads = atol(argv[i + 1]); i += 2; }
    if (i != argc - 1 || threads < 1 || threads > 1024) {
        fprintf(stderr, "usage: floor [-a] [-j THREADS] DIR\n");
        return 2;
    }
    push(strdup(argv[i]));
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    for (long t = 0; t < threads; t++) pthread_create(&ids[t], NULL, worker, NULL);
    for (long t = 0; t < threads; t++) pthread_join(ids[t], NULL);
    printf("%llu pages, %llu bytes read\n", total_pages, total_bytes);
    return 0;
}
