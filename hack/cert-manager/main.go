// Command cert-manager runs cert-manager's controllers (the ones `cert-manager-controller` runs by
// default) out of cluster for the e2e test bed: Issuers, Certificates, CertificateRequests with
// their approver, ACME Orders and Challenges. Never imported by the operator; see
// hack/build-binaries.sh.
//
// Why not cert-manager's own main: its command lives in a nested module
// (github.com/cert-manager/cert-manager/controller-binary, directory cmd/controller) whose path
// does not match its directory, so the Go module proxy cannot serve it, and the root module's zip
// leaves it out. Every controller registers itself in the root module's pkg/controller, so this
// main builds the same controller context and runs them; it has only the flags the test bed uses
// (cert-manager's names) and no metrics, healthz or leader election.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cert-manager/cert-manager/pkg/controller"
	logf "github.com/cert-manager/cert-manager/pkg/logs"
	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"

	// The controllers cert-manager-controller enables by default (cmd/controller/app/start.go
	// imports these for their registrations).
	_ "github.com/cert-manager/cert-manager/pkg/controller/acmechallenges"
	_ "github.com/cert-manager/cert-manager/pkg/controller/acmeorders"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/acme"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/acme"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
)

// version is stamped by hack/build-binaries.sh (-X main.version=...).
var version = "unknown"

type options struct {
	kubeconfig       string
	clusterNamespace string
	nameservers      string
	nameserversOnly  bool
	checkRetryPeriod time.Duration
	leaderElect      bool
	workers          int
	maxChallenges    int
	printVersion     bool
}

func parseFlags() options {
	var o options
	flag.StringVar(&o.kubeconfig, "kubeconfig", "", "Path to a kubeconfig (out of cluster).")
	flag.StringVar(&o.clusterNamespace, "cluster-resource-namespace", "kube-system",
		"Namespace of the Secrets ClusterIssuers use.")
	flag.StringVar(&o.nameservers, "dns01-recursive-nameservers", "",
		"Comma-separated host:port of the DNS servers DNS-01 self checks ask.")
	flag.BoolVar(&o.nameserversOnly, "dns01-recursive-nameservers-only", false,
		"Ask only the recursive nameservers, never the zone's authoritative ones.")
	flag.DurationVar(&o.checkRetryPeriod, "dns01-check-retry-period", 10*time.Second,
		"How long to wait between DNS-01 self checks.")
	flag.BoolVar(&o.leaderElect, "leader-elect", false, "Unsupported here: must stay false.")
	flag.IntVar(&o.workers, "concurrent-workers", 5, "Workers per controller.")
	flag.IntVar(&o.maxChallenges, "max-concurrent-challenges", 60, "Challenges in flight at once.")
	flag.BoolVar(&o.printVersion, "version", false, "Print the cert-manager version and exit.")
	flag.Parse()
	return o
}

// buildContextOptions mirrors cmd/controller/app's buildControllerContextFactory with
// cert-manager's default configuration for everything the flags do not set.
func buildContextOptions(o options) controller.ContextOptions {
	var nameservers []string
	if o.nameservers != "" {
		nameservers = strings.Split(o.nameservers, ",")
	}
	return controller.ContextOptions{
		Kubeconfig:         o.kubeconfig,
		KubernetesAPIQPS:   20,
		KubernetesAPIBurst: 50,
		ACMEOptions: controller.ACMEOptions{
			HTTP01SolverResourceRequestCPU:    resource.MustParse("10m"),
			HTTP01SolverResourceRequestMemory: resource.MustParse("64Mi"),
			HTTP01SolverResourceLimitsCPU:     resource.MustParse("100m"),
			HTTP01SolverResourceLimitsMemory:  resource.MustParse("64Mi"),
			ACMEHTTP01SolverRunAsNonRoot:      true,
			DNS01Nameservers:                  nameservers,
			DNS01CheckRetryPeriod:             o.checkRetryPeriod,
			DNS01CheckAuthoritative:           !o.nameserversOnly,
		},
		SchedulerOptions: controller.SchedulerOptions{MaxConcurrentChallenges: o.maxChallenges},
		IssuerOptions:    controller.IssuerOptions{ClusterResourceNamespace: o.clusterNamespace},
		IngressShimOptions: controller.IngressShimOptions{
			DefaultIssuerKind:        "Issuer",
			DefaultIssuerGroup:       "cert-manager.io",
			GatewayAPIExtraProtocols: sets.New[string](),
		},
		CertificateOptions: controller.CertificateOptions{
			CertificateRequestMinimumBackoffDuration: time.Hour,
			CertificateRequestMaximumBackoffDuration: 32 * time.Hour,
		},
	}
}

func run(ctx context.Context, o options) error {
	if o.leaderElect {
		return fmt.Errorf("cannot elect a leader: this build runs one instance, without leader election")
	}
	factory, err := controller.NewContextFactory(ctx, buildContextOptions(o))
	if err != nil {
		return fmt.Errorf("cannot build the controller context: %w", err)
	}
	cctx, err := factory.Build()
	if err != nil {
		return fmt.Errorf("cannot build the controller context: %w", err)
	}
	g, ctx := errgroup.WithContext(ctx)
	for name, construct := range controller.Known() {
		c, err := construct(factory)
		if err != nil {
			return fmt.Errorf("cannot start controller %s: %w", name, err)
		}
		logf.Log.Info("starting controller", "controller", name)
		g.Go(func() error { return c.Run(o.workers, ctx) })
	}
	cctx.SharedInformerFactory.Start(ctx.Done())
	cctx.KubeSharedInformerFactory.Start(ctx.Done())
	cctx.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())
	logf.Log.Info("cert-manager controllers started", "version", version)
	return g.Wait()
}

func main() {
	o := parseFlags()
	if o.printVersion {
		fmt.Println(version)
		return
	}
	logf.InitLogs()
	defer logf.FlushLogs()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx = logf.NewContext(ctx, logf.Log, "controller")
	if err := run(ctx, o); err != nil && ctx.Err() == nil {
		logf.Log.Error(err, "cert-manager controller failed")
		os.Exit(1)
	}
}
