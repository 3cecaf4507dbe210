#include <unistd.h>

#include <iostream>

#include "src/cli/cli.h"

int main(int argc, char** argv) {
  return disktune::cli::Main(std::vector<std::string>(argv, argv + argc),
                             std::cout, std::cerr, isatty(STDERR_FILENO) != 0);
}
