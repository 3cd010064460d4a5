// Fails in either settings style, naming the style it was compiled in.
#ifdef STRATA_COMPILE_FAIL_BY_VALUE
static_assert(sizeof(int) == 0, "compiled as the by-value variant");
#else
static_assert(sizeof(int) == 0, "compiled as the named variant");
#endif
