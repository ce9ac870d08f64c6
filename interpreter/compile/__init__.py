"""The compiler library: expressions, functions, the program builder and the English
describer that every primitive compiles and describes itself with (assemble/ puts a whole
game together)."""
