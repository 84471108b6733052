module benchscope.test/gobench

go 1.19
