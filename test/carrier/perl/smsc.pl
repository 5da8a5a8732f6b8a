#!/usr/bin/perl
# A minimal SMSC on Debian's libnet-smpp-perl, an SMPP implementation independent of Tasman's, for interop
# tests. It listens on an ephemeral loopback port (printed as "LISTENING <port>"), serves one connection at a
# time, and reports what it receives as one line per event on stdout:
#   BIND system_id=... password=...
#   SUBMIT dc=.. esm=.. src_ton=.. src_npi=.. src=.. dst_ton=.. dst=.. reg=.. sm=<hex of short_message>
#   RESP cmd=<hex> status=<n> seq=<n>            (responses from the ESME, e.g. deliver_sm_resp)
#   UNBIND / DISCONNECTED
# Message ids are hex in submit_sm_resp but DECIMAL in the receipt text (no TLVs), as some SMSCs do.
# A destination ending in 555 also triggers a two-part MO message (8-bit reference UDH); the other endings are
# things real SMSCs do:
#   554  the receipt says stat:ACCEPTD (final in SMPP 3.4) instead of DELIVRD
#   553  a two-part UCS-2 MO split inside a surrogate pair (ref 0x43): "Hi 👋!"
#   552  a two-part GSM MO whose part 1 ends with the escape 0x1B (ref 0x44): "5€!"
#   551  a deliver_sm with sound framing but an undecodable body (seq 28672), then an MO "after the bad one"
#   550  the id counter restarts first, as after an SMSC restart: message ids are reused
#   549  message types by esm_class alone, before the DELIVRD receipt: an SME delivery acknowledgement (0x08) and
#        an MO (0x00) from the handset to the sender, both with receipt-like text saying UNDELIV, then an
#        intermediate notification (0xA0: 0x20 with the reply-path bit) saying ENROUTE; the receipt goes only once
#        the ESME has answered the notification (`INTERMEDIATE seq=<n>` when sent)
use strict;
use warnings;
use Net::SMPP;

$| = 1;
# Net::SMPP's default timeout (5 s) is also the listener's accept timeout: an ESME slower than that to connect (a
# test app still migrating its scratch database on a loaded machine) found the SMSC gone, and its messages stayed
# queued. Five minutes without a connection still ends an SMSC whose test died without killing it.
my $listener = Net::SMPP->new_listen('127.0.0.1', port => 0, smpp_version => 0x34, timeout => 300)
  or die "cannot listen: $!";
print 'LISTENING ', $listener->sockport, "\n";

my $counter = 0x2F00;
# deliver_sm to send once the ESME answers the one with this sequence number (549: the receipt after the notification).
my %after_resp;

while (my $conn = $listener->accept) {
  print "CONNECTED\n";
  while (my $pdu = $conn->read_pdu) {
    my $cmd = $pdu->{cmd};
    if ($cmd == 0x00000009) {
      print "BIND system_id=$pdu->{system_id} password=$pdu->{password}\n";
      $conn->bind_transceiver_resp(seq => $pdu->{seq}, system_id => 'PERLSMSC');
    } elsif ($cmd == 0x00000015) {
      $conn->enquire_link_resp(seq => $pdu->{seq});
    } elsif ($cmd == 0x00000006) {
      print "UNBIND\n";
      $conn->unbind_resp(seq => $pdu->{seq});
      last;
    } elsif ($cmd == 0x00000004) {
      my $dst = $pdu->{destination_addr};
      $counter = 0x2F00 if $dst =~ /550$/;
      my $id = sprintf('%X', ++$counter);
      printf "SUBMIT dc=%d esm=%d src_ton=%d src_npi=%d src=%s dst_ton=%d dst=%s reg=%d sm=%s\n",
        $pdu->{data_coding}, $pdu->{esm_class}, $pdu->{source_addr_ton}, $pdu->{source_addr_npi},
        $pdu->{source_addr}, $pdu->{dest_addr_ton}, $pdu->{destination_addr}, $pdu->{registered_delivery},
        unpack('H*', $pdu->{short_message});
      $conn->submit_sm_resp(seq => $pdu->{seq}, message_id => $id);
      if ($dst =~ /549$/) {
        my $decimal = hex($id);
        my $text = sub { "id:$decimal sub:001 dlvrd:000 submit date:2401021304 done date:2401021305 stat:$_[0] err:$_[1] text:" };
        my %handset = (source_addr_ton => 1, source_addr_npi => 1, source_addr => $dst,
          dest_addr_ton => $pdu->{source_addr_ton}, dest_addr_npi => $pdu->{source_addr_npi},
          destination_addr => $pdu->{source_addr}, data_coding => 0);
        $conn->deliver_sm(async => 1, %handset, esm_class => 0x08, short_message => $text->('UNDELIV', '001'));
        $conn->deliver_sm(async => 1, %handset, esm_class => 0x00, short_message => $text->('UNDELIV', '001'));
        my $seq = $conn->deliver_sm(async => 1, %handset, esm_class => 0xA0, short_message => $text->('ENROUTE', '000'));
        print "INTERMEDIATE seq=$seq\n";
        $after_resp{$seq} = [%handset, esm_class => 0x04, short_message => $text->('DELIVRD', '000')];
      } elsif ($pdu->{registered_delivery}) {
        my $decimal = hex($id);
        my $stat = $dst =~ /554$/ ? 'ACCEPTD' : 'DELIVRD';
        $conn->deliver_sm(async => 1,
          source_addr_ton => 1, source_addr_npi => 1, source_addr => $pdu->{destination_addr},
          dest_addr_ton => $pdu->{source_addr_ton}, dest_addr_npi => $pdu->{source_addr_npi},
          destination_addr => $pdu->{source_addr}, esm_class => 0x04, data_coding => 0,
          short_message => "id:$decimal sub:001 dlvrd:001 submit date:2401021304 done date:2401021305 "
            . "stat:$stat err:000 text:");
      }
      my %split = (
        553 => [8, 0x43, "\x00H\x00i\x00 \xD8", "\x3D\xDC\x4B\x00!"],
        552 => [0, 0x44, "\x35\x1B", "\x65\x21"],
      );
      if ($dst =~ /(55[23])$/) {
        my ($dc, $ref, @parts) = @{ $split{$1} };
        my $i = 0;
        for my $part (@parts) {
          $i++;
          $conn->deliver_sm(async => 1,
            source_addr_ton => 1, source_addr_npi => 1, source_addr => $dst,
            dest_addr_ton => 1, dest_addr_npi => 1, destination_addr => '61400000001',
            esm_class => 0x40, data_coding => $dc, short_message => pack('C*', 5, 0, 3, $ref, 2, $i) . $part);
        }
      }
      if ($dst =~ /551$/) {
        # deliver_sm whose service_type never ends: the length is right, the body cannot be decoded.
        $conn->syswrite(pack('NNNN', 19, 0x00000005, 0, 28672) . 'CMT');
        $conn->deliver_sm(async => 1,
          source_addr_ton => 1, source_addr_npi => 1, source_addr => $dst,
          dest_addr_ton => 1, dest_addr_npi => 1, destination_addr => '61400000001',
          esm_class => 0, data_coding => 0, short_message => 'after the bad one');
      }
      if ($pdu->{destination_addr} =~ /555$/) {
        my $i = 0;
        for my $part ('Perl says hello ', 'in two parts') {
          $i++;
          $conn->deliver_sm(async => 1,
            source_addr_ton => 1, source_addr_npi => 1, source_addr => $pdu->{destination_addr},
            dest_addr_ton => 1, dest_addr_npi => 1, destination_addr => '61400000001',
            esm_class => 0x40, data_coding => 0, short_message => pack('C*', 5, 0, 3, 0x42, 2, $i) . $part);
        }
      }
    } elsif ($cmd & 0x80000000) {
      printf "RESP cmd=%08x status=%d seq=%d\n", $cmd, $pdu->{status}, $pdu->{seq};
      if (my $next = delete $after_resp{$pdu->{seq}}) { $conn->deliver_sm(async => 1, @$next); }
    } else {
      $conn->generic_nack(seq => $pdu->{seq}, status => 3);
    }
  }
  print "DISCONNECTED\n";
  close $conn;
}
