package dev.nimchart.cluster;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The controller tier's certificates, made fresh for each run in a directory of its own: one CA, the API server's
 * serving certificate, a cluster-admin client certificate, a serving certificate for the webhooks on 127.0.0.1, and the
 * service-account signing key. PEM files, as the Kubernetes binaries read them.
 */
public final class Pki {

    private static final Duration VALIDITY = Duration.ofDays(2);

    private final Path dir;
    private final KeyPair caKey;
    private final X509Certificate ca;
    private long serial = 1;

    private Pki(Path dir) {
        this.dir = dir;
        this.caKey = ecKey();
        this.ca = sign("CN=nim-chart-tests-ca", caKey, List.of(), true, null);
    }

    /** Creates every file the tier needs under {@code dir}. */
    /** The certificates of a tier's own kube-apiserver: reachable on loopback and under the in-cluster names and address. */
    public static Pki forLocalApiServer(Path dir) {
        return create(dir, List.of("127.0.0.1", TierAddresses.KUBERNETES_SERVICE_IP, TierAddresses.ADVERTISE_ADDRESS),
                List.of("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"));
    }

    public static Pki create(Path dir, List<String> apiServerIps, List<String> apiServerNames) {
        Pki pki = new Pki(dir);
        try {
            Files.createDirectories(dir);
            pki.write("ca.crt", pem(pki.ca));
            pki.writePair("apiserver", "CN=kube-apiserver", apiServerIps, apiServerNames, KeyPurposeId.id_kp_serverAuth);
            pki.writePair("admin", "CN=nim-chart-tests,O=system:masters", List.of(), List.of(), KeyPurposeId.id_kp_clientAuth);
            pki.writePair("webhook", "CN=webhooks", List.of("127.0.0.1"), List.of("localhost"), KeyPurposeId.id_kp_serverAuth);
            KeyPair sa = ecKey();
            pki.write("sa.key", pem(sa.getPrivate()));
            pki.write("sa.pub", pem(sa.getPublic()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the tier's certificates to " + dir, e);
        }
        return pki;
    }

    /** Issues a server certificate of this CA ({@code name}.crt and .key) for these addresses and names; returns the .crt. */
    public synchronized Path serverCertificate(String name, List<String> ips, List<String> dnsNames) {
        try {
            writePair(name, "CN=" + name, ips, dnsNames, KeyPurposeId.id_kp_serverAuth);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the certificate " + name + " to " + dir, e);
        }
        return file(name + ".crt");
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    /** The CA certificate, base64 of its PEM, as kubeconfigs and webhook caBundles carry it. */
    public String caBundle() {
        return Base64.getEncoder().encodeToString(pem(ca).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** A kubeconfig for the cluster-admin client certificate. */
    public String adminKubeConfig(String server) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: tier
                  cluster:
                    server: %s
                    certificate-authority: %s
                contexts:
                - name: tier
                  context: {cluster: tier, user: admin}
                current-context: tier
                users:
                - name: admin
                  user:
                    client-certificate: %s
                    client-key: %s
                """.formatted(server, file("ca.crt"), file("admin.crt"), file("admin.key"));
    }

    private void writePair(String name, String subject, List<String> ips, List<String> dnsNames, KeyPurposeId purpose) throws IOException {
        KeyPair key = ecKey();
        List<GeneralName> sans = new ArrayList<>();
        ips.forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
        dnsNames.forEach(n -> sans.add(new GeneralName(GeneralName.dNSName, n)));
        write(name + ".crt", pem(sign(subject, key, sans, false, purpose)));
        write(name + ".key", pem(key.getPrivate()));
    }

    private X509Certificate sign(String subject, KeyPair key, List<GeneralName> sans, boolean isCa, KeyPurposeId purpose) {
        Instant now = Instant.now();
        X500Name issuer = ca == null ? new X500Name(subject) : new X500Name(ca.getSubjectX500Principal().getName());
        PrivateKey signer = ca == null ? key.getPrivate() : caKey.getPrivate();
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(serial++),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), new X500Name(subject), key.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            if (isCa) {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature));
            } else {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            }
            if (!sans.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
            ContentSigner contentSigner = new JcaContentSignerBuilder("SHA256withECDSA").build(signer);
            return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the certificate " + subject, e);
        }
    }

    /** A P-256 key: the Kubernetes binaries take ECDSA for every certificate and the service-account key, and it is made
     *  in about a millisecond where a 2048-bit RSA key takes a hundred or more (five a tier, in every test JVM). */
    private static KeyPair ecKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC key generator", e);
        }
    }

    private static String pem(Object o) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            // A private key as PKCS #8, which names its curve (Bouncy Castle's SEC1 form of these keys leaves it out).
            writer.writeObject(o instanceof PrivateKey key ? new org.bouncycastle.util.io.pem.PemObject("PRIVATE KEY", key.getEncoded()) : o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private void write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }
}
