// The shell benchmark's baseline: start, print one line, exit.
print("hello, world")
