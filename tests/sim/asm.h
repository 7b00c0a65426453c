/*
 * asm.h: assembling test programs from text, for the tests of the USC
 * core and of jobs on the device.
 */
#ifndef TESTS_SIM_ASM_H
#define TESTS_SIM_ASM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Assembles lines separated by '\n' into code (at most cap bytes) and
 * returns the length; fails the test on a line it cannot assemble.
 * "name:" defines a label; "@name" in an instruction stands for its offset.
 */
size_t test_assemble(const char *text, uint8_t *code, size_t cap);

#endif
