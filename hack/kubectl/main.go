// Command kubectl is the upstream kubectl command (k8s.io/kubectl's default command), built
// from the Go module proxy so the bench can measure a current kubectl beside the system one:
// kubectl 1.34 and later cache the field-validation check per kind instead of parsing the
// group-version's OpenAPI document for every object (kubernetes/kubernetes#132003).
// See hack/build-binaries.sh (target kubectl) and docs/bench.md.
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
