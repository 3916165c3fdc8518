/*
 * vm-forwarder: the plain C baseline the real-kernel suite measures the
 * daemon against (Tools/vm-test builds it statically into the VM image).
 *
 *   vm-forwarder DEVICE...
 *
 * For each device: a uinput clone with the same name, ids, properties, event
 * codes and absolute axes (the daemon's clone, less its phys), then the grab
 * (EVIOCGRAB). Prints "clone DEVICE CLONE_NODE" for each and "ready", then
 * forwards every event read from each device to its clone, unchanged, until
 * killed: the least a forwarder can do, and the same grabs and uinput
 * devices the daemon holds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_DEVICES 8
#define BITS(n) (((n) + 7) / 8)

static int has(const unsigned char *bits, int bit) { return bits[bit / 8] & (1 << (bit % 8)); }

static void fail(const char *what, const char *path) {
    fprintf(stderr, "vm-forwarder: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* The clone of the device open on fd; returns the uinput descriptor. */
static int clone_device(int fd, const char *path, char *node, size_t size) {
    int ui = open("/dev/uinput", O_RDWR | O_CLOEXEC);
    if (ui < 0) fail("cannot open /dev/uinput for", path);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    if (ioctl(fd, EVIOCGID, &setup.id) < 0) fail("cannot read the ids of", path);
    if (ioctl(fd, EVIOCGNAME(sizeof setup.name), setup.name) < 0) fail("cannot read the name of", path);
    unsigned char props[BITS(INPUT_PROP_CNT)] = {0};
    ioctl(fd, EVIOCGPROP(sizeof props), props);
    for (int p = 0; p < INPUT_PROP_CNT; p++)
        if (has(props, p)) ioctl(ui, UI_SET_PROPBIT, p);
    unsigned char types[BITS(EV_CNT)] = {0};
    if (ioctl(fd, EVIOCGBIT(0, sizeof types), types) < 0) fail("cannot read the event types of", path);
    static const struct { int type, max; unsigned long set; } kinds[] = {
        {EV_KEY, KEY_CNT, UI_SET_KEYBIT}, {EV_REL, REL_CNT, UI_SET_RELBIT}, {EV_ABS, ABS_CNT, UI_SET_ABSBIT},
        {EV_MSC, MSC_CNT, UI_SET_MSCBIT}, {EV_SW, SW_CNT, UI_SET_SWBIT}, {EV_LED, LED_CNT, UI_SET_LEDBIT},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (!has(types, kinds[k].type)) continue;
        unsigned char codes[BITS(KEY_CNT)] = {0};
        ioctl(fd, EVIOCGBIT(kinds[k].type, BITS(kinds[k].max)), codes);
        ioctl(ui, UI_SET_EVBIT, kinds[k].type);
        for (int code = 0; code < kinds[k].max; code++) {
            if (!has(codes, code)) continue;
            ioctl(ui, kinds[k].set, code);
            if (kinds[k].type == EV_ABS) {
                struct uinput_abs_setup abs = {.code = code};
                ioctl(fd, EVIOCGABS(code), &abs.absinfo);
                ioctl(ui, UI_ABS_SETUP, &abs);
            }
        }
    }
    if (ioctl(ui, UI_DEV_SETUP, &setup) < 0 || ioctl(ui, UI_DEV_CREATE) < 0) fail("cannot create the clone of", path);
    char sysname[64] = {0}, directory[128];
    if (ioctl(ui, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) fail("cannot name the clone of", path);
    snprintf(directory, sizeof directory, "/sys/devices/virtual/input/%s", sysname);
    node[0] = 0;
    for (int tries = 0; tries < 200 && !node[0]; tries++) {
        DIR *dir = opendir(directory);
        struct dirent *entry;
        while (dir && (entry = readdir(dir)))
            if (strncmp(entry->d_name, "event", 5) == 0) snprintf(node, size, "/dev/input/%s", entry->d_name);
        if (dir) closedir(dir);
        if (!node[0]) usleep(5000);
    }
    if (!node[0]) fail("found no event node for the clone of", path);
    return ui;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc - 1 > MAX_DEVICES) {
        fprintf(stderr, "usage: vm-forwarder DEVICE... (at most %d)\n", MAX_DEVICES);
        return 64;
    }
    struct pollfd polls[MAX_DEVICES];
    int clones[MAX_DEVICES];
    int count = argc - 1;
    for (int i = 0; i < count; i++) {
        int fd = open(argv[i + 1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) fail("cannot open", argv[i + 1]);
        char node[300];
        clones[i] = clone_device(fd, argv[i + 1], node, sizeof node);
        if (ioctl(fd, EVIOCGRAB, 1) < 0) fail("cannot grab", argv[i + 1]);
        polls[i] = (struct pollfd){.fd = fd, .events = POLLIN};
        printf("clone %s %s\n", argv[i + 1], node);
    }
    printf("ready\n");
    fflush(stdout);
    struct input_event events[64];
    for (;;) {
        if (poll(polls, count, -1) < 0 && errno != EINTR) fail("cannot poll", argv[1]);
        for (int i = 0; i < count; i++) {
            if (!(polls[i].revents & POLLIN)) continue;
            ssize_t got = read(polls[i].fd, events, sizeof events);
            if (got <= 0) continue;
            if (write(clones[i], events, got) != got) fail("cannot write the clone of", argv[i + 1]);
        }
    }
}
