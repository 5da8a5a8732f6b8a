import { SMTPServer } from 'smtp-server';

export interface Received { to: string; text: string }

/**
 * A real SMTP server on loopback (the npm smtp-server) that keeps every message it receives, one entry per
 * recipient, its quoted-printable soft breaks undone so links read whole. SMTP_URL for the app is `url`.
 */
export async function startSmtpInbox(): Promise<{ inbox: Received[]; url: string; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, text: text.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  return {
    inbox,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
