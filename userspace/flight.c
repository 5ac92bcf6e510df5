#include "rcupoll.h"
int cmd_flight(int argc, char **argv) { return 0; }
void usage_flight(FILE *f) {}
