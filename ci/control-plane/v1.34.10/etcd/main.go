// Command etcd is the etcd server, built from the go.etcd.io/etcd/server/v3
// module (the same entry point as upstream's etcd binary).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
