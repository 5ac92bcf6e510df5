#include "rcupoll.h"
int cmd_record(int argc, char **argv) { return 0; }
void usage_record(FILE *f) {}
